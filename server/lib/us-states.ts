/**
 * The one list of US states (the 50 states, DC and Puerto Rico): where providers are licensed, pharmacies
 * ship and patients live. Every check of a state, the patient's contact form and questionnaire items that
 * declare `fact: state` (DESIGN decision 31) read it from here.
 */
export const US_STATE_NAMES = {
  AL: 'Alabama', AK: 'Alaska', AZ: 'Arizona', AR: 'Arkansas', CA: 'California', CO: 'Colorado', CT: 'Connecticut', DE: 'Delaware',
  DC: 'District of Columbia', FL: 'Florida', GA: 'Georgia', HI: 'Hawaii', ID: 'Idaho', IL: 'Illinois', IN: 'Indiana', IA: 'Iowa',
  KS: 'Kansas', KY: 'Kentucky', LA: 'Louisiana', ME: 'Maine', MD: 'Maryland', MA: 'Massachusetts', MI: 'Michigan', MN: 'Minnesota',
  MS: 'Mississippi', MO: 'Missouri', MT: 'Montana', NE: 'Nebraska', NV: 'Nevada', NH: 'New Hampshire', NJ: 'New Jersey',
  NM: 'New Mexico', NY: 'New York', NC: 'North Carolina', ND: 'North Dakota', OH: 'Ohio', OK: 'Oklahoma', OR: 'Oregon',
  PA: 'Pennsylvania', PR: 'Puerto Rico', RI: 'Rhode Island', SC: 'South Carolina', SD: 'South Dakota', TN: 'Tennessee', TX: 'Texas',
  UT: 'Utah', VT: 'Vermont', VA: 'Virginia', WA: 'Washington', WV: 'West Virginia', WI: 'Wisconsin', WY: 'Wyoming',
} as const;

export type UsState = keyof typeof US_STATE_NAMES;
/** Two-letter codes, alphabetical by code. */
export const US_STATES = Object.keys(US_STATE_NAMES) as [UsState, ...UsState[]];

export const isUsState = (v: unknown): v is UsState => typeof v === 'string' && Object.hasOwn(US_STATE_NAMES, v);

/** The list as choice options (value = code, label = name, alphabetical by name): what a `fact: state` item offers. */
export const US_STATE_OPTIONS: { value: UsState; label: string }[] = US_STATES.map((value) => ({ value, label: US_STATE_NAMES[value] })).sort((a, b) =>
  a.label.localeCompare(b.label),
);
