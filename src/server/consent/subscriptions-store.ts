// What the subscriptions service reads and writes, as it declares it (the repositories satisfy it).
import type { OptOutsRepository } from '../db/opt-outs-repository.js';
import type { PhoneChangeQueueRepository } from '../db/phone-change-queue-repository.js';
import type { SubscribersRepository } from '../db/subscribers-repository.js';
import type { SuppressionsRepository } from '../db/suppressions-repository.js';

/** What subscriptions reads and writes: the people, their opt-outs, and the suppression list's entries. */
export interface SubscriptionsStore {
  subscribers: Pick<
    SubscribersRepository,
    | 'subscriber'
    | 'subscriberByEmailKey'
    | 'subscribersByPhone'
    | 'confirm'
    | 'updatePreferences'
    | 'changeDetails'
    | 'changeLanguage'
  >;
  optOuts: Pick<
    OptOutsRepository,
    | 'provenByEmailedLink'
    | 'comeBack'
    | 'confirmTexts'
    | 'leave'
    | 'remove'
    | 'stopTexts'
    | 'startTexts'
    | 'markUndeliverable'
    | 'clearUndeliverable'
    | 'remember'
  >;
  suppressions: Pick<SuppressionsRepository, 'entries'>;
  phoneChanges: Pick<PhoneChangeQueueRepository, 'askPhoneChange'>;
}
