// Every word the page shows, in Spanish (issue 45): the same shape as content-en.ts, checked by type
// and by src/client/words.test.ts. Written for older readers: "usted", plain words, short sentences
// (a Fernández-Huerta check stands beside the English grade check). Keep the two files in step.
import type * as En from './content-en';
import { productName } from './content-en';
import { REPLY_KEEP_DAYS } from '../shared/kept-days.js';

export const site: typeof En.site = {
  title: `${productName}: practique cómo descubrir estafas, sin riesgo. Muy pronto`,
  description:
    'ScamSavvy ayuda a las personas mayores a descubrir correos, llamadas y mensajes de estafa con práctica segura, con ayuda en vivo y noticias para la familia. Apúntese para saber cuándo sale.',
  skipLink: 'Ir al contenido principal',
};

export const shareCard: typeof En.shareCard = {
  image: { path: '/share-image-es.png', width: 1200, height: 630, type: 'image/png' },
  imageAlt: `El escudo de ${productName} y las palabras: Practique cómo descubrir estafas, sin riesgo. Correos, llamadas y mensajes de estafa de mentira, con ayuda amable. Muy pronto: apúntese a la lista.`,
};

export const notFoundTitle: typeof En.notFoundTitle = (homeTitle) => `Página no encontrada: ${homeTitle}`;

export const hero: typeof En.hero = {
  comingSoon: 'Muy pronto...',
  description: [
    `${productName} es una aplicación para el teléfono. Ayuda a las personas mayores a descubrir estafas antes de que hagan daño.`,
    'Practique con correos, llamadas y mensajes de estafa de mentira, sin ningún riesgo. Sepa enseguida cómo le fue, y hable con una persona de verdad cuando tenga dudas. Su familia recibe noticias sencillas, y así todos se preocupan un poco menos.',
  ],
  signupButton: 'Proteja a su familia: avísenme cuando salga la aplicación',
  reassurance: 'Apuntarse es gratis. Solo le pedimos su nombre, su teléfono y su correo.',
};

export const carousel: typeof En.carousel = {
  label: 'Vistas de la aplicación',
  intervalMs: 3000,
  previous: { visible: 'Anterior', hidden: ' vista' },
  next: { visible: 'Siguiente', hidden: ' vista' },
  pause: { visible: 'Pausa', hidden: ' de las vistas' },
  play: { visible: 'Seguir', hidden: ' con las vistas' },
  slideLabel: (position, total) => `${position} de ${total}`,
  pickerLabel: (position, item) => `Mostrar vista ${position}: ${item.title}`,
  items: [
    {
      image: 'suspicious-email',
      title: 'Correo sospechoso',
      alt: 'Un correo de práctica que dice venir de un banco, con tres señales de alarma marcadas: un correo raro, mucha prisa y un enlace raro.',
    },
    {
      image: 'scam-phone-call',
      title: 'Llamada de estafa',
      alt: "Una llamada de práctica de 'Beneficios Medicare' que pide su número de Medicare, con una pista: las agencias de verdad no llaman para pedirlo.",
    },
    {
      image: 'scam-text',
      title: 'Mensaje de estafa',
      alt: 'Un mensaje de práctica sobre un paquete retenido, con un enlace de pago raro, que le pregunta si lo tocaría o si lo borraría y lo denunciaría.',
    },
    {
      image: 'instant-feedback',
      title: 'Respuesta al momento',
      alt: "Una marca verde grande que dice '¡Bien visto!', con las tres pistas que encontró en el mensaje falso y un botón para la siguiente práctica.",
    },
    {
      image: 'progress',
      title: 'Su progreso',
      alt: 'Una pantalla de progreso: el 72% de las estafas descubiertas, 5 días seguidos, y cuántos correos, llamadas y mensajes de práctica lleva.',
    },
    {
      image: 'family-update',
      title: 'Noticias para la familia',
      alt: 'Noticias para un hijo adulto: mamá descubrió 4 de 5 estafas de práctica esta semana, con un gráfico de sus minutos de práctica. Pidió ayuda una vez, y la ayudaron en vivo.',
    },
    {
      image: 'live-support',
      title: 'Ayuda en vivo',
      alt: 'Un chat de ayuda en vivo donde una persona de verdad aconseja colgar y llamar al nieto a su propio número por una llamada desde la cárcel.',
    },
  ],
};

export const scamStatistics: typeof En.scamStatistics = {
  // Figures as US Spanish writes them (the spec's own figures): a dollar sign first, commas between thousands.
  heading: '$16,600 millones perdidos por estafas',
  headline: {
    source:
      'Centro de Denuncias de Delitos por Internet del FBI (IC3), Informe de Delitos por Internet 2024: $16,600 millones en pérdidas denunciadas',
    sourceUrl: 'https://www.ic3.gov/AnnualReport/Reports/2024_IC3Report.pdf',
  },
  intro:
    'Los estafadores saben lo que hacen, y muchas veces buscan a las personas mayores. Estas cifras muestran por qué vale la pena practicar.',
  figures: [
    {
      figure: '1 de cada 5',
      caption: 'personas mayores reciben intentos de estafa cada año',
      source: 'Investor Protection Trust, encuesta sobre fraude y abuso financiero a personas mayores',
      sourceConfirmed: false,
    },
    {
      figure: '$33,915',
      caption: 'de pérdida media por víctima',
      source: 'FBI IC3, Informe de Fraude a Personas Mayores 2023: pérdida media por víctima de más de 60 años',
      sourceUrl: 'https://www.ic3.gov/AnnualReport/Reports/2023_IC3ElderFraudReport.pdf',
      sourceConfirmed: true,
    },
    {
      figure: '1 de cada 2',
      caption: 'estafas que salen bien nunca se denuncian',
      source: 'cifra de la descripción de nuestro producto',
      sourceConfirmed: false,
    },
  ],
  sourcesLabel: 'Fuentes',
  unconfirmedNote: 'aún estamos confirmando el estudio original',
};

export const simpleSafeLearning: typeof En.simpleSafeLearning = {
  heading: 'Aprender fácil y sin riesgo',
  intro: 'Tres pasos sencillos, a su ritmo. Nada en la práctica es real, así que no hay nada que perder.',
  steps: [
    {
      title: 'Situaciones de práctica',
      text: 'Pruebe correos, llamadas y mensajes de estafa de mentira, sin riesgo, que parecen de verdad.',
    },
    {
      title: 'Sepa cómo le fue',
      text: 'Vea enseguida lo que descubrió y lo que se le pasó, explicado con palabras sencillas.',
    },
    {
      title: 'Noticias para la familia',
      text: 'Su familia recibe noticias cortas de su progreso, y así sabe que usted está más seguro.',
    },
  ],
};

export const founderStory: typeof En.founderStory = {
  heading: 'Por qué creamos ScamSavvy',
  paragraphs: [
    'Los estafadores suenan cada vez más reales. Una llamada puede sonar como un nieto en apuros. Un correo puede parecer de su banco. Cualquiera puede caer, y no tiene nada que ver con ser listo o no.',
    'Creamos ScamSavvy para que las personas que queremos puedan practicar cómo decir "no" en un lugar seguro, con alguien a quien preguntar cuando tengan dudas, y con la familia cerca.',
  ],
};

export const howItProtects: typeof En.howItProtects = {
  heading: 'Cómo ScamSavvy protege a su familia',
  cards: [
    {
      icon: 'practice',
      title: 'Aprender practicando',
      text: 'Prácticas cortas y amables con estafas de mentira. Se aprende haciendo, no leyendo lecciones largas.',
    },
    {
      icon: 'shield',
      title: 'Protección contra estafas',
      text: 'Conozca las señales que más usan los estafadores: le meten prisa, le piden secreto, y le piden dinero o contraseñas.',
    },
    {
      icon: 'family',
      title: 'Unidos en familia',
      text: 'Invite a un hijo, una hija o quien le cuide. Ven su progreso y le animan, sin leer sus mensajes.',
    },
  ],
};

export const realProtection: typeof En.realProtection = {
  heading: 'Protección de verdad, con calma',
  items: [
    'Estafas de práctica siempre seguras: sin dinero real y sin enlaces reales.',
    'Letra grande, botones claros y palabras sencillas.',
    'Aprenda a su ritmo, unos minutos cada vez.',
    'Una persona de verdad a quien preguntar cuando algo no le parezca bien.',
    'Nunca una pregunta con trampa y nunca un reproche.',
  ],
};

export const builtForFamilies: typeof En.builtForFamilies = {
  heading: 'Pensado para las familias que se cuidan',
  cards: [
    {
      title: 'Para hijos adultos',
      text: 'Sepa que su padre o su madre practica, vea cómo le va y reciba un aviso cuando pida ayuda.',
    },
    {
      title: 'Para personas mayores',
      text: 'Gane confianza a su manera. Usted decide qué compartir, y la ayuda está siempre a un toque.',
    },
  ],
};

export const closingCallToAction: typeof En.closingCallToAction = {
  heading: 'Sea de los primeros en saber cuándo está lista ScamSavvy',
  text: 'Apúntese a la lista y le avisaremos en cuanto la aplicación se pueda descargar.',
  signupButton: 'Proteja a su familia: avísenme cuando esté lista',
  badgesLabel: 'La aplicación estará en las dos tiendas',
  badges: [
    { platform: 'ios', store: 'App Store', text: 'Muy pronto en el App Store' },
    { platform: 'android', store: 'Google Play', text: 'Muy pronto en Google Play' },
  ],
};

export const notFound: typeof En.notFound = {
  heading: '404',
  text: 'Vaya, no encontramos esta página',
  homeLink: 'Volver al inicio',
};

export const footer: typeof En.footer = {
  copyright: (year) => `© ${year} ${productName}. Todos los derechos reservados.`,
  trust: `${productName} nunca le llamará para pedirle dinero, contraseñas ni datos del banco.`,
  cookieChoices: 'Cambiar mi respuesta sobre las cookies',
};

export const privacyNotice: typeof En.privacyNotice = {
  id: 'privacy-notice',
  summary: 'Aviso de privacidad: qué datos guardamos y por qué',
  cookies: {
    heading: 'Solo si usted acepta las cookies',
    providers: {
      'Google Analytics':
        'Google Analytics (de Google) nos dice cómo la gente encuentra y usa esta página. Nunca recibe su nombre, su teléfono ni su correo.',
      PostHog:
        'PostHog anota cómo se usa la página, como los toques y el desplazamiento, para ayudarnos a hacerla más fácil. Lo que usted escribe queda oculto en esa grabación. Si se apunta, su nombre, su teléfono y su correo se añaden a ese registro.',
      'Meta Pixel':
        'El Píxel de Meta (de Meta, la empresa de Facebook) le dice a Meta cuando alguien se apunta después de ver nuestro anuncio. Envía su correo, su teléfono y su nombre en forma cifrada, para que Meta los pueda unir a una cuenta.',
    },
    globalPrivacyControl:
      'Si su navegador envía la señal Global Privacy Control, PostHog y el Píxel de Meta se quedan apagados, elija lo que elija.',
  },
  contactLabel: 'Escríbanos:',
  sections: [
    {
      heading: 'Cuando se apunta',
      paragraphs: [
        `Guardamos su nombre, su número de teléfono, su correo y si quiere probar la versión de prueba. Solo los usamos para avisarle cuando sale ${productName} y de la versión de prueba, por mensaje de texto y por correo. Nunca los vendemos.`,
        'También guardamos de dónde vino (la página, la campaña o el sitio que le trajo, y el botón que tocó), su propio enlace para pasar a su familia y, si vino por el enlace de un familiar, de quién era ese enlace.',
        `También anotamos cuándo y cómo aceptó, confirmó o cambió de idea, con las palabras que vio o nos envió. Si le pedimos que confirme por correo y no lo hace, borramos sus datos a los {{UNCONFIRMED_RETENTION_DAYS}} días. Si nos escribe un mensaje de texto que no atendemos por nosotros mismos, lo guardamos ${REPLY_KEEP_DAYS} días para que una persona lo lea.`,
      ],
    },
    {
      heading: 'Contamos las visitas sin cookies',
      paragraphs: [
        'Nuestro propio servidor cuenta las visitas a la página, el desplazamiento y los pasos para apuntarse, para saber si esta página ayuda. Estas cuentas no guardan ningún nombre, ninguna dirección, ninguna cookie ni ninguna dirección de internet.',
      ],
    },
    {
      heading: 'Para salir de la lista, o para preguntarnos algo',
      paragraphs: [
        'Cada correo trae un enlace a su propia página. Allí puede apagar los correos o los mensajes, salir de la lista o borrar sus datos: para estar seguros de que es usted, le enviamos un botón por correo, y al tocarlo se borran al momento. También puede responder ALTO a cualquier mensaje, o escribirnos a la dirección de abajo: borraremos sus datos antes de 30 días. Las copias de seguridad de la lista los guardan hasta que esas copias se cambian por otras más nuevas, como mucho {{BACKUP_DAYS}} días después.',
        'Si sale de la lista o borra sus datos, solo guardamos un código cifrado de su correo y su teléfono, para no volver a escribirle por error. Con él guardamos la constancia de lo que aceptó y de cuándo dijo que no, para poder mostrarla. Los guardamos mientras exista la lista. Si otra persona escribe su correo o su número en esta página, eso no cambia nada: solo usted puede cambiarlo, con el botón del único correo que le enviamos entonces, o enviando START por mensaje.',
      ],
    },
  ],
};

export const languageSwitch: typeof En.languageSwitch = {
  to: 'en',
  href: '/',
  text: 'English',
  label: 'Read this page in English',
  offer: {
    text: 'Would you rather read in English?',
    link: 'Read this page in English',
    close: 'No, thank you',
  },
};
