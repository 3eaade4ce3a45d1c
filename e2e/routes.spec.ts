import { expect, test } from './fixtures';

test('"/" is the landing page, with status 200', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('button', { name: 'Protect My Family — Notify Me On App Release!' })).toBeVisible();
});

test('"/index.html" replaces itself with "/" without adding a history entry', async ({ page }) => {
  const response = await page.goto('/index.html');
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(/\/$/);
  expect(new URL(page.url()).pathname).toBe('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Coming soon...');
  await page.goBack(); // replaced, so "back" leaves the site rather than returning to /index.html
  expect(page.url()).toBe('about:blank');
});

test('a first path segment is the router base: "/spring" is the landing page', async ({ page }) => {
  const response = await page.goto('/spring');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Coming soon...');
});

for (const path of ['/spring/offer', '/missing.html', '/a/b/c']) {
  test(`"${path}" is the 404 page, with status 404 and a console error naming the path`, async ({ page, console }) => {
    const errors = console.expectError(/non-existent route/);
    console.expectError(/Failed to load resource: the server responded with a status of 404/);
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: '404' })).toBeVisible();
    await expect(page.getByText('Oops! Page not found')).toBeVisible();
    await expect.poll(errors).toEqual([expect.stringContaining(path)]);
  });
}

test('"Return to Home" goes back to the landing page', async ({ page, console }) => {
  console.expectError(/non-existent route|status of 404/);
  await page.goto('/missing.html');
  const link = page.getByRole('link', { name: 'Return to Home' });
  await expect(link).toHaveAttribute('href', '/');
  await link.click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Protect My Family — Notify Me On App Release!' })).toBeVisible();
});

test('unknown API paths answer JSON 404', async ({ request }) => {
  const response = await request.get('/api/nothing-here');
  expect(response.status()).toBe(404);
  expect((await response.json()).error.code).toBe('not_found');
});
