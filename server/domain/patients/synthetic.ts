import { faker } from '@faker-js/faker/locale/en_US';
import { now } from '@/server/lib/clock';
import { US_STATES } from '@/server/lib/us-states';
import type { PatientFields } from './patients';

const ALLERGIES = ['penicillin', 'sulfa drugs', 'latex', 'aspirin', 'peanuts', 'shellfish'];
const MEDICATIONS = ['lisinopril 10 mg daily', 'metformin 500 mg twice daily', 'atorvastatin 20 mg daily', 'levothyroxine 50 mcg daily', 'sertraline 50 mg daily'];

/**
 * A realistic but fictitious US adult for sandbox testing. Contact details can never reach a person:
 * the e-mail is on the reserved example.com domain and the phone number is in the 555-0100 to 555-0199
 * range the North American Numbering Plan keeps for fiction.
 */
export function generateSyntheticPatient(): PatientFields {
  const sex = faker.helpers.arrayElement(['female', 'male'] as const);
  const firstName = faker.person.firstName(sex);
  const lastName = faker.person.lastName();
  const state = faker.helpers.arrayElement(US_STATES);
  const areaCode = faker.string.numeric({ length: 1, exclude: ['0', '1'] }) + faker.string.numeric(2);
  return {
    firstName,
    lastName,
    dateOfBirth: faker.date.birthdate({ mode: 'age', min: 18, max: 85, refDate: now() }).toISOString().slice(0, 10),
    sex,
    email: faker.internet.email({ firstName, lastName, provider: 'example.com' }).toLowerCase(),
    phone: `+1${areaCode}55501${faker.string.numeric(2)}`,
    address: {
      line1: faker.location.streetAddress(),
      line2: faker.datatype.boolean(0.3) ? faker.location.secondaryAddress() : null,
      city: faker.location.city(),
      state,
      postalCode: faker.location.zipCode({ state }),
      country: 'US',
    },
    allergies: faker.helpers.arrayElements(ALLERGIES, { min: 0, max: 2 }),
    medications: faker.helpers.arrayElements(MEDICATIONS, { min: 0, max: 2 }),
  };
}
