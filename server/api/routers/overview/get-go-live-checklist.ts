import { sessionProcedure } from '@/server/api/procedures';
import { goLiveChecklist } from '@/server/domain/overview/go-live';
import { consoleGoLiveMeta, ZConsoleGoLiveRequest, ZConsoleGoLiveResponse } from './get-go-live-checklist.types';

/** The "Go live" page: each setup step of the session's mode, done or what is missing, with where to do it. */
export const consoleGoLiveRoute = sessionProcedure
  .meta(consoleGoLiveMeta)
  .input(ZConsoleGoLiveRequest)
  .output(ZConsoleGoLiveResponse)
  .query(({ ctx }) => goLiveChecklist(ctx.services.database.db, ctx.principal, ctx.services.auth.publicUrl));
