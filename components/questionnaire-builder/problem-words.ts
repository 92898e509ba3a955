/**
 * The validator's problems in an admin's words (issue 50, item 5). The API keeps its codes, params and messages
 * (the SDK and the AI drafter read them); the builder shows each one as a plain sentence instead, chosen from
 * the param (what field) and the message (what kind of problem). Pure, so it is tested without a browser.
 */

const n1 = (i: string) => Number(i) + 1;

/** What an empty required field needs, by the param's last segments. */
function emptyField(param: string): string {
  if (/^items\.\d+\.options\.\d+\.label$/.test(param)) return 'An option needs a label.';
  if (/^items\.\d+\.options\.\d+\.value$/.test(param)) return 'An option needs a value.';
  if (/^items\.\d+\.text$/.test(param)) return 'Give this question its text.';
  if (/^items\.\d+\.linkId$/.test(param)) return 'Give this question an id.';
  if (/^items\.\d+\.unit$/.test(param)) return 'Give the unit a name, or leave it out.';
  if (/^rules\.\d+\.patientMessage$/.test(param)) return 'Write the message the patient sees when this rule applies.';
  if (/^rules\.\d+\.id$/.test(param)) return 'Give this rule an id.';
  if (param === 'title') return 'Give the questionnaire a title.';
  if (param === 'key') return 'Give the questionnaire a key.';
  return 'Fill this in.';
}

/** Too few entries in a list, by which list. */
function tooFew(param: string): string {
  if (/^items\.\d+\.options$/.test(param)) return 'A choice question needs at least one option.';
  if (param === 'items') return 'Add at least one question.';
  if (/\.(all|any)$/.test(param)) return 'A group of conditions needs at least one condition.';
  return 'Add at least one entry here.';
}

/** A value the schema does not accept at all, by field. */
function invalidValue(param: string): string {
  if (/\.type$/.test(param)) return 'Choose a question type.';
  if (/\.op$/.test(param)) return 'Choose how the answer is compared.';
  if (/\.effect$/.test(param)) return 'Choose what this rule does.';
  if (/(enableWhen|when)(\.(all|any)\.\d+)*$/.test(param)) return 'This condition is incomplete: choose a question, how it is compared and a value.';
  if (/\.value$/.test(param)) return 'This value does not fit the question it is compared with.';
  return 'This value is not accepted here.';
}

/** Rewrites of the validator's own sentences, where they name paths ("items.0") instead of what the admin sees. */
const SENTENCES: [RegExp, (...m: string[]) => string][] = [
  [/^linkId "([^"]*)" is already used by items\.(\d+)/, (id, i) => `Question ${n1(i)} already uses the id "${id}"; each question needs its own id.`],
  [/^rule id "([^"]*)" is already used by rules\.(\d+)/, (id, r) => `Rule ${n1(r)} already uses the id "${id}"; each rule needs its own id.`],
  [/^The condition refers to "([^"]*)", which is not an item/, (q) => `This condition refers to "${q}", which is not a question in this questionnaire.`],
  [/^Item "([^"]*)" has max (\S+) below its min (\S+?)\.?$/, (_id, max, min) => `The maximum (${max}) is below the minimum (${min}); make the maximum at least the minimum.`],
  [/^enableWhen may only refer to earlier items; "([^"]*)" is items\.(\d+)/, (q, i) => `A question can only depend on questions before it; "${q}" is question ${n1(i)}, not before this one.`],
  [/^Item "([^"]*)" lists option value "([^"]*)" twice/, (_id, v) => `Another option of this question already has the value "${v}"; each option needs its own value.`],
  [/^a linkId: /, () => 'A question id starts with a letter and has only letters, digits, _ or - (at most 64 characters).'],
  [/^a rule id: /, () => 'A rule id starts with a letter and has only letters, digits, _ or - (at most 64 characters).'],
  [/^a key: /, () => 'The key has only lowercase letters, digits, _ or - (at most 64 characters).'],
];

/** Zod's default messages: never shown as they are. */
const ZOD_DEFAULT = /expected|received|Invalid input|Invalid option|>=|<=|Too (small|big)/;

/**
 * One problem as the builder shows it. `param` is the document path (`items.3.text`), `message` the validator's
 * sentence without its location prefix.
 */
export function adminMessage(param: string | undefined, message: string): string {
  const at = param ?? '';
  let m: RegExpExecArray | null;
  if (/^Too small: expected string to have >=1 characters?$/.test(message)) return emptyField(at);
  if ((m = /^Too big: expected string to have <=(\d+) characters?$/.exec(message))) return `This is too long: keep it to ${m[1]} characters or fewer.`;
  if (/^Too small: expected array to have >=1 items?$/.test(message)) return tooFew(at);
  if ((m = /^Too big: expected array to have <=(\d+) items?$/.exec(message))) return `There are too many here: at most ${m[1]}.`;
  if ((m = /^Too small: expected number to be >=?(-?[\d.]+)$/.exec(message))) return `Use a number of at least ${m[1]}.`;
  if ((m = /^Too big: expected number to be <=?(-?[\d.]+)$/.exec(message))) return `Use a number of at most ${m[1]}.`;
  if (/^Invalid input: expected \w+, received undefined$/.test(message)) return emptyField(at);
  if (/^Unrecognized key/.test(message)) return 'This field is not part of a questionnaire; remove it.';
  for (const [re, say] of SENTENCES) {
    const found = re.exec(message);
    if (found) return say(...found.slice(1));
  }
  if (ZOD_DEFAULT.test(message)) return invalidValue(at);
  // A sentence someone wrote: keep it, naming questions and rules as the builder numbers them.
  return message.replace(/\bitems\.(\d+)/g, (_, i: string) => `question ${n1(i)}`).replace(/\brules\.(\d+)/g, (_, r: string) => `rule ${n1(r)}`);
}
