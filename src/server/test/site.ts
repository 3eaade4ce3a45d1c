// The site every test's links and emails are made for.
export const SITE = 'https://scamsavvy.example';
