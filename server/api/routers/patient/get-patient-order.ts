import { patientProcedure } from '@/server/api/procedures';
import { getPatientOrder } from '@/server/domain/patients/portal/orders';
import { getPatientOrderMeta, ZGetPatientOrderRequest, ZGetPatientOrderResponse } from './get-patient-order.types';

export const getPatientOrderRoute = patientProcedure
  .meta(getPatientOrderMeta)
  .input(ZGetPatientOrderRequest)
  .output(ZGetPatientOrderResponse)
  .query(({ ctx, input }) => getPatientOrder(ctx.services.database.db, ctx.patient, input.id, ctx.state.requestId));
