/** The widget scripts' major version in their paths (`/embed/v1/flow.js`): a breaking change gets a new one. */
export const WIDGET_VERSION = '1';
