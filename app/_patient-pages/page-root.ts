/** The element React owns on a page the custom server renders, and the JSON script that carries its props. */
export const ROOT_ID = 'fr-root';
export const PROPS_ID = 'fr-props';
