// Words the prerendered page holds in place of settings only the server knows; the server writes the
// values in (src/server/site/site-routes.ts) before it sends the page. A module of its own, so the
// page's first script carries these few strings and nothing else of the settings' code.

/** UNCONFIRMED_RETENTION_DAYS, in the privacy notice. */
export const RETENTION_DAYS_PLACEHOLDER = '{{UNCONFIRMED_RETENTION_DAYS}}';
/** How long backups may keep a deleted person (BACKUP_KEEP × BACKUP_EVERY_HOURS, in days), in the privacy notice. */
export const BACKUP_DAYS_PLACEHOLDER = '{{BACKUP_DAYS}}';
/** Who sends, from where (senderLine of MAIL_POSTAL_ADDRESS), in the privacy notice. */
export const POSTAL_ADDRESS_PLACEHOLDER = '{{POSTAL_ADDRESS}}';
/** The privacy contact (PRIVACY_EMAIL), in the privacy notice. */
export const PRIVACY_EMAIL_PLACEHOLDER = '{{PRIVACY_EMAIL}}';
