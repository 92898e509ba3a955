/** Shapes of the /v1/patients answers the console reads (see server/api/routers/patients/patients.types.ts). PHI. */
export interface PatientAddress {
  line1: string;
  line2: string | null;
  city: string;
  state: string;
  postalCode: string;
  country: 'US';
}

export interface Patient {
  id: string;
  livemode: boolean;
  synthetic: boolean;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  sex: 'female' | 'male' | 'intersex' | 'unknown';
  email: string | null;
  phone: string | null;
  address: PatientAddress | null;
  allergies: string[];
  medications: string[];
  createdAt: string;
  updatedAt: string;
}

export interface AccessLogEntry {
  id: string;
  patientId: string;
  action: 'create' | 'read' | 'list' | 'update';
  actorKind: 'key' | 'user';
  actorId: string;
  requestId: string | null;
  at: string;
}
