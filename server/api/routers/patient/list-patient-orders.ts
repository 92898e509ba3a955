import { patientProcedure } from '@/server/api/procedures';
import { listPatientOrders } from '@/server/domain/patients/portal/orders';
import { listPatientOrdersMeta, ZListPatientOrdersRequest, ZListPatientOrdersResponse } from './list-patient-orders.types';

export const listPatientOrdersRoute = patientProcedure
  .meta(listPatientOrdersMeta)
  .input(ZListPatientOrdersRequest)
  .output(ZListPatientOrdersResponse)
  .query(({ ctx }) => listPatientOrders(ctx.services.database.db, ctx.patient, ctx.state.requestId));
