// The words of every message we send and of the pages their links open, in Spanish (issue 45): the
// same shape as message-words-en.ts (checked by type and by src/server/messaging/message-words.test.ts).
// Written for older readers: "usted", plain words, short sentences (a Fernández-Huerta check stands
// beside the English grade check). Texts are written in the GSM alphabet, so each stays one 160-character
// segment like the English: é, ñ, ü, ¿ and ¡ are in it, á, í, ó and ú are not, so texts leave those
// accents off, as Spanish text-message programmes do (decision 047). Emails and pages keep every accent.
// Never put anything a visitor typed in here.

import { shareWordsIn } from '../../shared/share-content.js';
import { smsSegments } from '../../shared/sms-segments.js';
import type { BroadcastWords, LinkPageWords, MessageWords } from './message-words-en.js';

const product = 'ScamSavvy';
const shareWords = shareWordsIn.es;
/** As in English: the launch text, and the beta one if they asked. */
const TEXTS_AT_MOST = 2;
/** The carriers' notice, in the short form Spanish text programmes use (GSM alphabet). */
const RATES = 'Puede haber cargos de msj y datos.';

const BUTTON = { doing: 'Tocar el botón', done: 'lo toca' } as const;
const LINK = { doing: 'Abrir el enlace', done: 'lo abre' } as const;

function keepsWords(action: typeof BUTTON | typeof LINK, deleteOn: string, reminderInDays?: number): string {
  const reminder = reminderInDays
    ? `le enviaremos un solo recordatorio ${reminderInDays === 1 ? 'dentro de 1 día' : `dentro de ${reminderInDays} días`}, y `
    : '';
  return `${action.doing} es lo que le mantiene en la lista. Si no ${action.done}, ${reminder}borraremos sus datos el ${deleteOn}. No le llegará nada más, a menos que alguien use nuestro formulario otra vez con este correo.`;
}

export const messageWords: MessageWords = {
  product,
  listName: `Noticias de ${product}`,
  confirmation: {
    subject: `Confirme que quiere recibir noticias de ${product}`,
    heading: 'Confirme que quiere apuntarse',
    intro: `Alguien, esperamos que usted, pidió en la página de ${product} que le avisemos cuando la aplicación esté lista.`,
    ask: 'Si fue usted, toque el botón de abajo, para que sepamos que este correo es suyo.',
    askText: 'Si fue usted, abra el enlace de abajo, para que sepamos que este correo es suyo.',
    button: 'Sí, quiero seguir en la lista',
    keeps: (deleteOn, reminderInDays) => keepsWords(BUTTON, deleteOn, reminderInDays),
    keepsText: (deleteOn, reminderInDays) => keepsWords(LINK, deleteOn, reminderInDays),
    notYou: 'Si no fue usted, no haga nada.',
    share: `${shareWords.prompt} Envíele este enlace a nuestra página:`,
    footerWhy: `Recibe este correo porque alguien dio esta dirección en la página de ${product}.`,
    preferencesLink: 'Cambiar lo que le enviamos',
    unsubscribeLink: 'No recibir más correos',
    signature: `El equipo de ${product}`,
  },
  comeBack: {
    subject: `¿Quiere volver a recibir noticias de ${product}?`,
    heading: '¿Quiere volver a saber de nosotros?',
    intro: `Alguien, esperamos que usted, se apuntó otra vez en la página de ${product} con este correo.`,
    because: {
      left: 'Antes de eso, usted había salido de nuestra lista.',
      email_off: 'Antes de eso, usted había apagado nuestros correos.',
      deleted: 'Antes de eso, usted nos pidió borrar sus datos, y los borramos.',
    },
    ask: 'Si quiere un correo nuestro cuando la aplicación esté lista, toque el botón de abajo.',
    askText: 'Si quiere un correo nuestro cuando la aplicación esté lista, abra el enlace de abajo.',
    button: 'Sí, quiero volver a recibir noticias',
    deleteOn: (day) => `Si no lo toca, el ${day} borraremos los datos que se escribieron otra vez.`,
    deleteOnText: (day) => `Si no lo abre, el ${day} borraremos los datos que se escribieron otra vez.`,
    notYou: 'Si no fue usted, o no lo quiere, no haga nada. Nada cambia, y no le volveremos a preguntar.',
  },
  button: {
    subject: {
      on: `¿Activar las noticias de ${product}?`,
      back: `¿Volver a recibir noticias de ${product}?`,
      delete: `¿Borrar sus datos de ${product}?`,
    },
    heading: {
      on: '¿Quiere activar esto?',
      back: '¿Quiere volver a recibir noticias?',
      delete: '¿Quiere que borremos sus datos?',
    },
    intro: `Alguien, esperamos que usted, lo pidió en su propia página de ${product}.`,
    works: (hours) => `El botón sirve una sola vez, y solo durante ${hours} horas.`,
    notYou: 'Si no fue usted, no haga nada. Nada cambia si no toca el botón.',
  },
  reminder: {
    subject: `Confirme que aún quiere recibir noticias de ${product}`,
    heading: '¿Aún quiere saber de nosotros?',
    intro: `Hace unos días, alguien, esperamos que usted, pidió en la página de ${product} que le avisemos cuando la aplicación esté lista. Aún no sabemos nada de usted.`,
    once: 'Este es el único recordatorio que le enviaremos.',
  },
  phoneChange: {
    subject: `¿Pidió cambiar su número de teléfono en ${product}?`,
    heading: '¿Cambiar su número de teléfono?',
    intro: (end) => `Alguien pidió cambiar su número de teléfono por el •••• ${end}. Toque el botón para cambiarlo.`,
    introText: (end) =>
      `Alguien pidió cambiar su número de teléfono por el •••• ${end}. Abra el enlace de abajo para cambiarlo.`,
    where: `Lo pidió en la página de ${product}: al apuntarse otra vez con su correo, o en la página que abre el enlace de nuestros correos (un correo se puede reenviar).`,
    button: 'Cambiar mi número de teléfono',
    notYou: (currentEnd) => `Si no fue usted, no haga nada. Seguiremos con el número que termina en ${currentEnd}.`,
    until: (day) => `El botón sirve hasta el ${day}.`,
    untilText: (day) => `El enlace sirve hasta el ${day}.`,
  },
  sms: {
    help: (contact, sender = '') => {
      const first = `${product}: avisos de la salida de la app, ${TEXTS_AT_MOST} msj max. ${RATES} ALTO para salir. Ayuda: ${contact}`;
      if (!sender) return [first];
      const joined = `${first}\n${sender}`;
      return smsSegments(joined).segments === 1 ? [joined] : [first, sender];
    },
    stopped: `No le enviaremos mas mensajes de ${product}. Responda START para volver a recibirlos.`,
    joining: {
      reply: `${product}: responda SI para un aviso al salir la app (y la prueba si la pidio). ${TEXTS_AT_MOST} msj max. ALTO para salir, AYUDA para ayuda. ${RATES}`,
      notice: `${product}: le avisaremos cuando salga la app (y la prueba si la pidio). ${TEXTS_AT_MOST} msj max. ALTO para salir, AYUDA para ayuda. ${RATES}`,
    },
    confirmed: `${product}: gracias. Le avisaremos al salir la app (y la prueba si la pidio). ${TEXTS_AT_MOST} msj max. ALTO para salir, AYUDA para ayuda. ${RATES}`,
    started: `${product}: vuelve a recibir mensajes, solo de la salida de la app y la prueba. ${TEXTS_AT_MOST} msj max. ${RATES} ALTO para salir, AYUDA para ayuda.`,
  },
};

export const broadcastWords: BroadcastWords = {
  launch: {
    subject: `Ya está aquí ${product}: la aplicación está lista`,
    heading: 'La aplicación está lista',
    intro: `Nos pidió que le avisáramos cuando la aplicación ${product} estuviera lista. Ya está lista, y la puede descargar hoy.`,
    about: `${product} le ayuda a descubrir estafas. Practica con correos, llamadas y mensajes de mentira, sin riesgo, y una persona de verdad le ayuda.`,
    ask: 'Toque el botón de su teléfono para descargar la aplicación.',
    askText: 'Abra el enlace de su teléfono para descargar la aplicación.',
    ios: 'Descargarla para iPhone o iPad',
    android: 'Descargarla para Android',
    once: 'Este es el único correo de lanzamiento que le dijimos que le enviaríamos.',
    sms: (siteUrl) =>
      `${product}: ¡la app ya esta lista! Descarguela aqui: ${siteUrl}/app Responda ALTO para no recibir mas.`,
  },
  beta: {
    subject: `Le invitamos a probar antes que nadie la aplicación ${product}`,
    heading: 'Ayúdenos a probar la aplicación',
    intro: `Nos dijo que le gustaría probar ${product} antes que nadie. La versión de prueba ya está lista.`,
    about: 'Pruébela y díganos qué funciona y qué no. Así nos ayuda a mejorar la aplicación para todos.',
    ask: 'Toque el botón de su teléfono para descargar la versión de prueba.',
    askText: 'Abra el enlace de su teléfono para descargar la versión de prueba.',
    ios: 'Probarla en iPhone o iPad',
    android: 'Probarla en Android',
    once: 'Solo enviamos esto a quienes pidieron probar la aplicación.',
    sms: (siteUrl) =>
      `${product}: la version de prueba de la app ya esta lista. Descarguela aqui: ${siteUrl}/beta Responda ALTO para no recibir mas.`,
  },
  safety: `${product} nunca le pedirá una contraseña, un dato del banco ni dinero.`,
  footerWhy: `Recibe este correo porque se apuntó para recibir noticias en la página de ${product}.`,
  preferencesLink: 'Cambiar lo que le enviamos',
  unsubscribeLink: 'No recibir más correos',
  signature: `El equipo de ${product}`,
};

export const linkPageWords: LinkPageWords = {
  product,
  pageTitle: (title) => `${title} - ${product}`,
  home: 'Ir a la página de inicio',
  footer: `${product} nunca le pedirá una contraseña, un dato del banco ni dinero.`,
  forAddress: (email, phoneEnd) =>
    `Estas opciones son para ${email} y para el número de teléfono que termina en ${phoneEnd}.`,
  badLink: {
    title: 'Este enlace ya no sirve',
    text: 'Puede que sea viejo, o que le falte una parte. Si lo copió, revise que lo copió entero.',
  },
  confirm: {
    title: `Confirme que quiere recibir noticias de ${product}`,
    text: `Toque el botón para decirnos que quiere saber de ${product} cuando la aplicación esté lista.`,
    button: 'Sí, quiero seguir en la lista',
    doneTitle: 'Gracias. Ya está confirmado.',
    doneText: (email, sms) =>
      `Le avisaremos${email && sms ? ' por correo y por mensaje de texto' : email ? ' por correo' : ' por mensaje de texto'} en cuanto la aplicación esté lista.`,
    doneNothing:
      'Usted apagó nuestros correos y mensajes, así que no le enviaremos la noticia del lanzamiento. Para recibirla, elija lo que le enviamos en su propia página.',
    doneLaunched: `La aplicación ya salió, así que no queda ningún aviso de lanzamiento por enviar. Puede descargar ${product} del App Store o de Google Play.`,
    comeBackTitle: '¿Quiere volver a recibir noticias?',
    leftText: 'Usted salió de nuestra lista, así que no le enviamos nada.',
    emailOffText: 'Usted apagó nuestros correos, así que no le enviamos ninguno.',
    comeBackText:
      'Si quiere un correo nuestro cuando la aplicación esté lista, toque el botón. Los mensajes de texto siguen apagados: los puede encender desde su propia página.',
    comeBackButton: 'Sí, envíenme el botón',
    comeBackByEmail:
      'Para estar seguros de que es usted, le enviaremos un botón por correo. Las noticias vuelven cuando lo toque.',
    comeBackNotYou: 'Si no lo quiere, no haga nada. Nada cambia si no toca el botón.',
    preferencesLink: 'Cambiar lo que le enviamos',
  },
  preferences: {
    title: 'Lo que le enviamos',
    about: 'Solo escribimos sobre nuestra aplicación: cuándo sale, y cómo probarla antes.',
    intro:
      'Marque lo que quiere. Desmarque lo que no quiere. Luego toque "Guardar mis opciones". Para activar algo, antes le enviamos un botón por correo, para estar seguros de que es usted.',
    choices: {
      email: 'Un correo cuando salga la aplicación',
      sms: 'Un mensaje de texto cuando salga la aplicación',
      beta: 'Noticias sobre la versión de prueba',
    },
    legend: 'Envíenme',
    smsStopped:
      'Este número respondió ALTO (o STOP) a uno de nuestros mensajes, así que no le enviamos mensajes. Para volver a recibirlos, responda START.',
    smsUnreachable:
      'Nuestros mensajes no llegan a este número: la compañía de teléfono dice que no puede recibirlos (es un teléfono fijo, o un número que ya no se usa). Para recibir mensajes, denos abajo un número de celular.',
    smsTakenOff:
      'Este número se quitó de nuestra lista (alguien que lo usaba salió de la lista o borró sus datos), así que no le enviamos mensajes. Si el número es suyo y quiere mensajes, envíe la palabra START desde él al número del que llegan nuestros mensajes.',
    smsTurnedOff:
      'Alguien que usa este número apagó nuestros mensajes, así que no le enviamos ninguno. Si el número es suyo y quiere mensajes, envíe la palabra START desde él al número del que llegan nuestros mensajes.',
    smsAwaitingYes: (asked) =>
      asked
        ? 'Le enviamos un mensaje a este número para preguntarle si quiere mensajes. Responda SÍ a ese mensaje para recibir uno cuando salga la aplicación.'
        : 'Le enviaremos un mensaje a este número para preguntarle si quiere mensajes. Responda SÍ a ese mensaje para recibir uno cuando salga la aplicación.',
    emailUnreachable:
      'Nuestros correos a esta dirección volvieron sin entregarse, así que no le enviamos más correos. Si la dirección vuelve a funcionar, apúntese otra vez con ella.',
    emailAskedNot:
      'Usted nos pidió no enviar correos a esta dirección (aquí, o desde su proveedor de correo), así que no le enviamos ninguno. Para volver a recibir la noticia por correo, marque la casilla y toque "Guardar mis opciones".',
    emailComplained:
      'Uno de nuestros correos a esta dirección se marcó como correo no deseado, así que nunca más le enviaremos correos. Sus mensajes de texto no cambian.',
    save: 'Guardar mis opciones',
    notConfirmed:
      'No sabemos nada de usted desde que se apuntó. Para seguir en la lista, toque "Guardar mis opciones" abajo.',
    savedLaunched: (beta) =>
      `Guardado. La aplicación ya salió, así que no queda ningún aviso de lanzamiento por enviar.${beta ? ' Le enviaremos noticias sobre la versión de prueba.' : ''}`,
    saved: (things) => {
      if (things.length === 0) return 'Guardado. No le enviaremos nada.';
      const list = things.length === 1 ? things[0] : `${things.slice(0, -1).join(', ')} y ${things.at(-1)}`;
      return `Guardado. Le enviaremos ${list}.`;
    },
    savedThings: {
      email: 'un correo cuando salga la aplicación',
      sms: 'un mensaje de texto cuando salga la aplicación',
      beta: 'noticias sobre la versión de prueba',
    },
    leaveTitle: 'Salir de la lista',
    leaveText: 'Dejaremos de enviarle correos y mensajes. Puede volver aquí más tarde y marcar otra casilla.',
    leave: 'Salir de la lista',
    left: 'Usted salió de la lista. No le enviaremos noticias del lanzamiento. Si alguien escribe su correo otra vez en nuestro formulario, le preguntaremos una vez, y nada cambia si no dice que sí.',
    comeBack: 'Si cambia de idea, marque una casilla abajo y toque "Guardar mis opciones".',
    deleteTitle: 'Borrar mis datos',
    deleteText: 'Quitaremos de nuestra lista su nombre, su número de teléfono y su correo.',
    delete: 'Borrar mis datos',
    deleteAsk: '¿Borrar sus datos?',
    deleteAskText:
      'Esto quita de nuestra lista su nombre, su número de teléfono y su correo. Las copias de seguridad de la lista los guardan hasta que esas copias se cambian por otras más nuevas. Solo guardamos un código cifrado, para no escribirle nunca por error.',
    deleteByEmail:
      'Para estar seguros de que es usted, le enviaremos un botón por correo. Sus datos se borran cuando lo toque.',
    deleteYes: 'Sí, envíenme el botón',
    deleteNo: 'No, guardarlos',
    deletedTitle: 'Sus datos se borraron',
    deleted:
      'Borramos sus datos. Si alguien escribe su correo otra vez en nuestro formulario, le preguntaremos una vez si quiere volver, y nada cambia si no dice que sí.',
    detailsTitle: 'Su nombre y su número de teléfono',
    detailsIntro: 'Si tenemos mal su nombre o su número de teléfono, cámbielo aquí.',
    nameLabel: 'Nombre nuevo',
    nameHint: 'Déjelo vacío para seguir con el nombre que nos dio.',
    phoneLabel: 'Número de celular nuevo',
    phoneHint: (end) =>
      `Tenemos un número que termina en ${end}. Para cambiarlo, escriba el número nuevo entero: le enviaremos por correo un botón para hacer el cambio. Si vive fuera de EE. UU., ponga + y el código de su país. Déjelo vacío para seguir con el mismo.`,
    detailsSave: 'Guardar mis datos',
    detailsProblem: 'Revise sus datos. No se cambió nada.',
    nothingTyped: 'Escriba un nombre nuevo o un número de teléfono nuevo.',
    detailsSaved: (phoneEnd) => `Guardado. Su número de teléfono termina en ${phoneEnd}.`,
    phoneChanged: (phoneEnd) => `Hecho. Su número de teléfono ahora termina en ${phoneEnd}.`,
    nameSaved: 'Guardamos su nombre.',
    phoneAsked: (email, newEnd, currentEnd) =>
      `Para proteger su número, le enviamos un correo a ${email}. Toque el botón de ese correo para cambiar su número de teléfono por el que termina en ${newEnd}. Hasta entonces, seguimos con el número que termina en ${currentEnd}.`,
    phoneAskedToday: (email, currentEnd) =>
      `Hace menos de un día le enviamos un correo a ${email} sobre un número nuevo, y enviamos como mucho uno al día. Toque el botón de ese correo, o vuelva a intentarlo mañana. Seguimos con el número que termina en ${currentEnd}.`,
    phoneNeedsEmail:
      'Ahora mismo no le podemos enviar un correo para comprobar un número nuevo, así que no se cambió. Escríbanos a la dirección de nuestros correos.',
    buttonSent: (email, does, hours) =>
      `Le enviamos un botón a ${email}. Tóquelo ${does}. Sirve una sola vez, y solo durante ${hours} horas. Lo pedimos así para que nadie más pueda hacerlo con una copia de uno de nuestros correos.`,
    buttonDoes: {
      on: (things) => `para activar ${things}`,
      back: 'y le volveremos a enviar noticias',
      delete: 'para borrar sus datos',
    },
    buttonThings: {
      email: 'nuestro correo cuando salga la aplicación',
      sms: 'nuestro mensaje de texto cuando salga la aplicación',
      beta: 'las noticias sobre la versión de prueba',
    },
    listed: (things) =>
      things.length <= 1 ? (things[0] ?? '') : `${things.slice(0, -1).join(', ')} y ${things.at(-1)}`,
    offSaved: 'Guardamos lo que desactivó.',
    buttonNotSent:
      'No pudimos enviarle el correo con el botón ahora, así que nada más cambió. Inténtelo otra vez en unos minutos.',
    buttonUnreachable:
      'Nuestros correos a esta dirección no llegan, así que no podemos enviarle el botón que esto necesita. Escríbanos a la dirección de nuestros correos.',
    buttonLimit:
      'Le enviamos varios de estos correos en la última hora. Toque el botón del más reciente, o inténtelo más tarde.',
    textsToNumber: 'Le enviaremos un mensaje de texto a este número cuando salga la aplicación.',
    textsLaunched: 'La aplicación ya salió, así que no queda ningún mensaje de lanzamiento por enviar.',
    noTextsToNumber:
      'No enviaremos mensajes a este número. La nota junto a la casilla de mensajes, abajo, dice por qué.',
    noTextsChosen:
      'Los mensajes de texto están apagados. Para recibir uno cuando salga la aplicación, marque la casilla de abajo y guarde.',
    nothingHeldTitle: 'No tenemos datos para este enlace',
    nothingHeld: 'Puede que se hayan borrado. Puede apuntarse otra vez en nuestra página de inicio.',
    languageTitle: 'El idioma en que le escribimos',
    languageIntro: 'Nuestros correos, nuestros mensajes y estas páginas están en el idioma que elija aquí.',
    languageLegend: 'Escríbanme en',
    languageSave: 'Guardar el idioma',
    languageSaved: 'Guardado. Le escribiremos en español.',
  },
  button: {
    title: {
      on: '¿Activar esto?',
      back: '¿Quiere volver a recibir noticias?',
      delete: '¿Borrar sus datos?',
    },
    on: (things) => `Toque el botón para activar ${things}.`,
    back: 'Toque el botón y le enviaremos un correo cuando la aplicación esté lista. Los mensajes de texto quedan como están.',
    delete:
      'Esto quita su nombre, su teléfono y su correo de nuestra lista. Solo guardamos un código cifrado, para no escribirle nunca por error.',
    yes: {
      on: 'Sí, activarlo',
      back: 'Sí, quiero volver a recibir noticias',
      delete: 'Sí, borrar mis datos',
    },
    notYou: 'Si usted no lo pidió, no haga nada. Nada cambia.',
    usedTitle: 'Este botón ya no sirve',
    used: 'Ya se tocó, o sus opciones cambiaron después de enviarlo. Su propia página está al pie de cada uno de nuestros correos.',
    expiredTitle: 'Este botón ya caducó',
    expired: (hours) =>
      `Sirvió durante ${hours} horas después de enviarlo. Toque el botón de abajo y le enviaremos uno nuevo.`,
    again: 'Envíenme un botón nuevo',
  },
  phoneChange: {
    title: '¿Cambiar su número de teléfono?',
    text: (end) => `Alguien pidió cambiar su número de teléfono por el ••••\u00a0${end}. Si fue usted, toque el botón.`,
    keep: (currentEnd) => `Si no fue usted, no haga nada. Seguiremos con el número que termina en ${currentEnd}.`,
    button: 'Cambiar mi número de teléfono',
    goneTitle: 'Este enlace ya no sirve',
    gone: 'Puede que sea de un cambio de número que se cambió por otro más nuevo, o que se pidió hace más de 7 días. Puede cambiar su número en su propia página: use el enlace "Cambiar lo que le enviamos" de cualquiera de nuestros correos.',
  },
  unsubscribe: {
    title: '¿No recibir más correos?',
    text: `Toque el botón para apagar los correos de ${product}.`,
    button: 'No recibir más correos',
    doneTitle: 'Nuestros correos están apagados',
    doneText:
      'No le enviaremos más correos. Solo si alguien vuelve a escribir su correo en nuestra página le enviamos uno, para preguntar si fue usted. Puede cambiar esto, o sus mensajes de texto, en su propia página.',
    preferencesLink: 'Cambiar lo que le enviamos',
    ownPage: 'El enlace a su propia página está al pie de cada uno de nuestros correos.',
  },
};
