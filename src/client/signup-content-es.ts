// The sign-up dialog's words in Spanish: the same shape as signup-content-en.ts (the dialog imports
// signup-content.ts, which picks the build's language).
import { SIGNUP_CONSENT_VERSION, signupConsentWords } from '../shared/consent-words.js';
import { signupMessagesIn } from '../shared/signup-schema.js';
import { productName } from './content-en';
import type * as En from './signup-content-en';

export const signupDialog: typeof En.signupDialog = {
  title: `Reciba un aviso cuando salga ${productName}`,
  subtitle: 'Apúntese para que su familia tenga acceso antes que nadie.',
  close: 'Cerrar',
  fields: {
    name: { label: 'Su nombre', hint: '' },
    phone: {
      label: 'Número de teléfono',
      hint: 'Por ejemplo, 555 123 4567. Si vive fuera de EE. UU., ponga + y el código de su país.',
    },
    email: { label: 'Correo electrónico', hint: '' },
  },
  betaTesting: {
    label: 'Marque aquí si quiere probar la versión de prueba',
    help: 'Use las novedades antes que nadie y ayúdenos a mejorar la aplicación.',
  },
  /** The same version as the English: each sign-up also keeps its language, which says which text it agreed to. */
  consentVersion: SIGNUP_CONSENT_VERSION,
  consent: signupConsentWords.es.consent,
  consentDetails: signupConsentWords.es.consentDetails,
  privacyLink: 'Lea nuestro aviso de privacidad.',
  submit: 'Proteger a mi familia: avísenme',
  submitting: 'Apuntándole a la lista...',
  maybeLater: 'Quizás más tarde',
  errorSummaryTitle: 'Hay un problema',
  trapLabel: 'Deje esta casilla vacía',
  errorPrefix: 'Error:',
  validation: signupMessagesIn.es,
  saveFailed:
    'Lo sentimos, no pudimos apuntarle ahora mismo. No se perdió nada de lo que escribió. Vuelva a intentarlo en un momento.',
  success: {
    title: '¡Ya está en la lista de protección!',
    text: `Gracias. Le avisaremos en cuanto salga ${productName}.`,
    confirmEmail: (days, reminderDays) =>
      reminderDays
        ? `Si este correo es nuevo en nuestra lista, ahora le enviamos un correo. Para seguir en la lista, toque el botón de ese correo. Si no lo toca, le enviaremos un solo recordatorio ${reminderDays === 1 ? 'dentro de 1 día' : `dentro de ${reminderDays} días`} y borraremos sus datos a los ${days} días. No le llegará nada más, a menos que alguien use este formulario otra vez con su correo.`
        : `Si este correo es nuevo en nuestra lista, ahora le enviamos un correo. Para seguir en la lista, toque el botón de ese correo. Si no lo toca, borraremos sus datos a los ${days} días. No le llegará nada más, a menos que alguien use este formulario otra vez con su correo.`,
    button: 'Entendido: ¡a proteger a mi familia!',
  },
};
