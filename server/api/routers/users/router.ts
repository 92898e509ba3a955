import { router } from '@/server/api/trpc';
import { createUserRoute } from './create-user';
import { deactivateUserRoute } from './deactivate-user';
import { listLicenseChangesRoute } from './list-license-changes';
import { listUsersRoute } from './list-users';
import { updateUserRoute } from './update-user';

export const usersRouter = router({
  listUsers: listUsersRoute,
  createUser: createUserRoute,
  updateUser: updateUserRoute,
  deactivateUser: deactivateUserRoute,
  listLicenseChanges: listLicenseChangesRoute,
});
