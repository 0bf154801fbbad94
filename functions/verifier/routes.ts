import type { Route } from '#shared/http/route.js';
import { moduleBasicsRoutes, moduleStateRoutes } from '../module-state/routes.js';

const base = '/modules/verifier';
const file = (name: string) => `functions/verifier/${name}.ts`;

const basics = moduleBasicsRoutes('verifier', {
  getSettings: "A guild's verifier settings",
  updateSettings: "Change a guild's verifier settings",
  deleteSettings: 'Remove all verifier data of a guild and reset the module',
  privacyGetUserEntries: "Count a member's verifications",
  privacyDeleteUserEntries: "Delete a member's verifications",
});

export const routes: Route[] = [
  ...moduleStateRoutes('verifier'),
  ...basics.settings,
  {
    id: 'verifier.list-entries',
    method: 'GET',
    path: `${base}/entries`,
    access: 'client',
    file: file('list-entries'),
    summary: "A guild's verifications, newest first",
  },
  { id: 'verifier.get-entry', method: 'GET', path: `${base}/entries/{entry_id}`, access: 'client', file: file('get-entry'), summary: 'One verification' },
  {
    id: 'verifier.create-verification',
    method: 'POST',
    path: `${base}/event/create-verification`,
    access: 'internal',
    file: file('create-verification'),
    summary: 'Post a verification prompt for a member',
  },
  {
    id: 'verifier.handle-verification',
    method: 'POST',
    path: `${base}/event/handle-verification`,
    access: 'internal',
    file: file('handle-verification'),
    summary: "A member answers their verification's prompt",
  },
  {
    id: 'verifier.web-page',
    method: 'GET',
    path: `${base}/web/{verifier_id}`,
    access: 'public',
    file: file('web-page'),
    summary: 'The verification web page (its one-time token is the credential)',
  },
  {
    id: 'verifier.web-verify',
    method: 'POST',
    path: `${base}/web/{verifier_id}`,
    access: 'public',
    file: file('web-verify'),
    summary: 'Verify on the web page',
  },
  ...basics.privacy,
];
