// Delete means delete (issue 23), on every engine: two people leave a full footprint through the
// real paths (a sign-up, a preference change, a broadcast sent through the SMTP test server, a
// delivery report, the owner searching for and opening them); one deletes their own details on
// their preferences page, the owner deletes the other. Then every table the database has (read
// from the database itself, so a table added later is covered too) is read whole: no row may still
// hold either person's id, email, phone number (in any form) or name.
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { DatabaseConfig } from '../config.js';
import { createLinkSigner } from '../messaging/link-tokens.js';
import { buttonPath } from '../consent/emailed-buttons.js';
import { setup } from '../test/broadcast-setup.js';
import { buildTestApp } from '../test/build-test-app.js';
import { SITE } from '../test/site.js';
import { signInAsOwner } from '../test/sign-in-as-owner.js';
import { storeEngines } from '../test/store-engines.js';
import { machineClock } from '../test/clock.js';

const KEY = 'k'.repeat(40); // broadcast-setup's SECRET_KEY

/** Every row of every table, as text, read straight from the database. */
async function everyRow(database: DatabaseConfig): Promise<{ table: string; row: string }[]> {
  const rows: { table: string; row: string }[] = [];
  if (database.kind === 'sqlite') {
    const db = new Database(database.file, { readonly: true });
    try {
      const tables = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        .all() as { name: string }[];
      for (const { name } of tables)
        for (const row of db.prepare(`SELECT * FROM "${name}"`).all())
          rows.push({ table: name, row: JSON.stringify(row) });
    } finally {
      db.close();
    }
    return rows;
  }
  const client = new pg.Client(database.url);
  await client.connect();
  try {
    const tables = await client.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
    );
    for (const { table_name: name } of tables.rows)
      for (const row of (await client.query(`SELECT * FROM "${name}"`)).rows)
        rows.push({ table: name, row: JSON.stringify(row) });
  } finally {
    await client.end();
  }
  return rows;
}

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`delete means delete on ${engine.name}`, () => {
    it('after deletion, by the person or by the owner, no column of any table holds their id, email, phone or name', async () => {
      const world = await setup(engine.name);
      const { store, broadcasts, send } = world;
      const people = [
        { name: 'Zelda Quokka', phone: '+15557654329', email: 'Zelda.Quokka@example.com', betaTesting: true },
        { name: 'Otto Wombat', phone: '+15553217788', email: 'otto.wombat@example.com', betaTesting: false },
        { name: 'Kept Person', phone: '+15550001234', email: 'kept@example.com', betaTesting: false },
      ];
      for (const person of people) await store.signups.add({ ...person, consentVersion: 'v1' });
      const ids: string[] = [];
      for (const person of people) {
        const subscriber = (await store.subscribers.subscriberByEmailKey(person.email.toLowerCase()))!;
        await store.subscribers.confirm(subscriber.id, 'confirm_page');
        ids.push(subscriber.id);
      }
      const [zelda, otto] = ids as [string, string, string];
      await broadcasts.subscriptions.updatePreferences(otto, { beta: true }, 'preferences_page');

      // A broadcast to everyone, through the SMTP test server; a delivery report about each message.
      const { broadcast } = await broadcasts.create({ name: 'launch', template: 'launch' });
      expect((await send(broadcast)).sent).toBe(3);
      // What comes back after the send, acted on as the server acts on it.
      const { feedback } = world.product.feedback!;
      for (const id of ids) {
        const [message] = await store.sentMessages.messagesTo(id);
        await feedback.receive([
          {
            source: 'mailgun',
            eventId: `delivered-${message!.token}`,
            kind: 'delivered',
            message: { token: message!.token },
            occurredAt: machineClock.now().toISOString(),
          },
        ]);
      }

      // The owner searches for both by their whole address and opens their records.
      const { app } = await buildTestApp({
        existing: { db: store, database: world.database, product: world.product },
        config: { siteUrl: SITE },
      });
      const cookie = { cookie: await signInAsOwner(app, store) };
      for (const [index, id] of [zelda, otto].entries()) {
        const search = await app.inject({
          url: `/owner/people?q=${encodeURIComponent(people[index]!.email)}`,
          headers: cookie,
        });
        expect(search.statusCode).toBe(200);
        expect((await app.inject({ url: `/owner/people/${id}`, headers: cookie })).statusCode).toBe(200);
      }
      const before = await everyRow(world.database);
      expect(before.some(({ row }) => row.includes(zelda))).toBe(true); // the footprint was there

      // Zelda deletes her own details on her preferences page; the owner deletes Otto.
      const manage = createLinkSigner(KEY).sign('manage', zelda);
      const own = await app.inject({
        method: 'POST',
        url: `/preferences/${manage}/delete`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'confirm=yes',
      });
      expect(own.statusCode).toBe(303);
      expect(own.headers.location).toMatch(/\?button=sent&ask=delete$/);
      // The button emailed to her (issue 54; this world's sink keeps no bodies, so it is signed here as
      // the server signs it, with the same key) deletes them.
      const zeldaNow = (await store.subscribers.subscriber(zelda))!;
      const button = buttonPath(createLinkSigner(KEY), zeldaNow, { kind: 'delete' }, machineClock.now());
      const pressed = await app.inject({
        method: 'POST',
        url: button,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
      expect(pressed.statusCode).toBe(303);
      const byOwner = await app.inject({
        method: 'POST',
        url: `/owner/people/${otto}/delete`,
        headers: { ...cookie, origin: SITE, 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
      expect(byOwner.statusCode).toBe(303);

      const after = await everyRow(world.database);
      for (const [index, id] of [zelda, otto].entries()) {
        const person = people[index]!;
        const traces = [id, person.email.toLowerCase(), person.phone, person.phone.replace(/\D/g, ''), person.name];
        const left = after.filter(({ row }) => traces.some((trace) => row.toLowerCase().includes(trace.toLowerCase())));
        expect(left, `${person.name} is still in ${left.map(({ table }) => table).join(', ')}`).toEqual([]);
      }
      // The rest is kept: the broadcast's counts, the third person, the suppression list, the owner's log.
      expect(await store.outbox.counts(broadcast.id)).toMatchObject({ sent: 3, total: 3 });
      expect(after.some(({ row }) => row.includes('kept@example.com'))).toBe(true);
      expect(after.filter(({ table }) => table === 'suppressions').length).toBeGreaterThanOrEqual(4);
      const log = await store.owners.auditLog(20);
      expect(log.map((entry) => entry.action)).toEqual(
        expect.arrayContaining(['searched', 'viewed_person', 'deleted_person']),
      );
    });
  });
}
