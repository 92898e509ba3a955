import { patientProcedure } from '@/server/api/procedures';
import { changeOrderShipping } from '@/server/domain/patients/portal/shipping';
import { updatePatientOrderShippingMeta, ZUpdatePatientOrderShippingRequest, ZUpdatePatientOrderShippingResponse } from './update-patient-order-shipping.types';

export const updatePatientOrderShippingRoute = patientProcedure
  .meta(updatePatientOrderShippingMeta)
  .input(ZUpdatePatientOrderShippingRequest)
  .output(ZUpdatePatientOrderShippingResponse)
  .mutation(({ ctx, input }) => {
    const { id, ...change } = input;
    return changeOrderShipping(ctx.services.database.db, ctx.patient, id, change, ctx.state.requestId);
  });
