import { describe, expect, it } from 'vitest';
import { basenameOf, pageNameOf, resolveRoute } from './routes.js';

describe('router base path (spec section 2)', () => {
  it('is "/" when the path is empty or its first segment ends in .html', () => {
    expect(basenameOf('/')).toBe('/');
    expect(basenameOf('/index.html')).toBe('/');
    expect(basenameOf('/missing.html')).toBe('/');
  });
  it('is the first segment otherwise', () => {
    expect(basenameOf('/spring')).toBe('/spring');
    expect(basenameOf('/spring/offer')).toBe('/spring');
  });
});

describe('resolveRoute', () => {
  it('shows the landing page for "/" and for a base path alone', () => {
    expect(resolveRoute('/').kind).toBe('home');
    expect(resolveRoute('/spring')).toEqual({ kind: 'home', basename: '/spring', path: '/' });
    expect(resolveRoute('/spring/').kind).toBe('home');
  });
  it('redirects /index.html to its base', () => {
    expect(resolveRoute('/index.html')).toMatchObject({ kind: 'redirect', to: '/' });
    expect(resolveRoute('/spring/index.html')).toMatchObject({ kind: 'redirect', to: '/spring' });
  });
  it('finds nothing anywhere else', () => {
    expect(resolveRoute('/missing.html')).toMatchObject({ kind: 'not-found', path: '/missing.html' });
    expect(resolveRoute('/spring/offer')).toMatchObject({ kind: 'not-found', path: '/offer' });
    expect(resolveRoute('/a/b/c').kind).toBe('not-found');
  });
});

describe('pageNameOf', () => {
  it('is "home" for "/" and the path without its slash otherwise', () => {
    expect(pageNameOf('/')).toBe('home');
    expect(pageNameOf('/offer')).toBe('offer');
  });
});
