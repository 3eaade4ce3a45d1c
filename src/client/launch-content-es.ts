// The words of the launched page (SITE_MODE=launched) in Spanish: the same shape as launch-content-en.ts.
import { productName } from './content-en';
import type * as En from './launch-content-en';

export const launchedSite: typeof En.launchedSite = {
  title: `Ya está aquí ${productName}: la aplicación que le ayuda a descubrir estafas`,
  description: `Ya está aquí ${productName}. La aplicación ayuda a las personas mayores a descubrir correos, llamadas y mensajes de estafa con práctica segura, con ayuda en vivo y noticias para la familia. Descárguela del App Store o de Google Play.`,
  shareImage: { path: '/share-image-launched-es.png', width: 1200, height: 630, type: 'image/png' },
  shareImageAlt: `El escudo de ${productName} y las palabras: Practique cómo descubrir estafas, sin riesgo. Correos, llamadas y mensajes de estafa de mentira, con ayuda amable. Ya está en el App Store y en Google Play.`,
};

export const launchedHero: typeof En.launchedHero = {
  heading: `¡Ya está aquí ${productName}!`,
  getIt: 'Descargue hoy la aplicación en su teléfono:',
  whichStore:
    '¿No sabe cuál es la suya? Un iPhone o un iPad usa el App Store. Casi todos los demás teléfonos usan Google Play.',
};

export const storeLinks: typeof En.storeLinks = {
  label: 'Descargar la aplicación',
  links: [
    { platform: 'ios', text: 'Descárguela del App Store', phones: 'Para iPhone y iPad' },
    { platform: 'android', text: 'Descárguela de Google Play', phones: 'Para teléfonos Android' },
  ],
};

export const downloadCallToAction: typeof En.downloadCallToAction = {
  heading: `Empiece hoy a practicar con ${productName}`,
  text: 'Elija la tienda de su teléfono. La aplicación se prepara en pocos minutos, y un familiar le puede ayudar.',
};

/** The Spanish privacy notice once launched: each change names the exact words it replaces. */
export const launchedPrivacyChanges: typeof En.launchedPrivacyChanges = [
  ['Cuando se apunta', 'Si se apuntó'],
  [
    'las visitas a la página, el desplazamiento y los pasos para apuntarse',
    'las visitas a la página, el desplazamiento y los toques en los botones de las tiendas',
  ],
  [
    ' Si otra persona escribe su correo o su número en esta página, eso no cambia nada: solo usted puede cambiarlo, con el botón del único correo que le enviamos entonces, o enviando START por mensaje.',
    ' Solo usted puede cambiarlo: desde su propia página (hay un enlace en cada correo), o enviando START por mensaje.',
  ],
];
