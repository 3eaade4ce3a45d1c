// The cookie question's words in Spanish: the same shape as consent-content-en.ts.
import type * as En from './consent-content-en';

export const consentBanner: typeof En.consentBanner = {
  label: 'Su respuesta sobre las cookies',
  heading: '¿Podemos usar cookies?',
  explanation: {
    'opt-in': (providers) =>
      `Nos gustaría usar cookies de ${providers} para saber cómo se usa esta página y para llegar a más familias con nuestros anuncios. No se activa nada si usted no dice que sí.`,
    'opt-out': (providers) =>
      `Usamos cookies de ${providers} para saber cómo se usa esta página y para llegar a más familias con nuestros anuncios. Puede decir que no, y las apagaremos.`,
  },
  and: 'y',
  accept: 'Aceptar las cookies',
  reject: 'Rechazar las cookies',
  privacyLink: 'Lea nuestro aviso de privacidad',
  current: {
    accepted: 'Usted aceptó las cookies.',
    rejected: 'Usted rechazó las cookies.',
  },
};
