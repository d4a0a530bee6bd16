// Date formats of the pickers and filters (spec section 2: DD-MM-YYYY, 24-hour HH:mm); light, no picker code.
export const DATE_FORMAT = 'DD-MM-YYYY';
export const DATETIME_FORMAT = 'DD-MM-YYYY HH:mm';
export const TIME_FORMAT = 'HH:mm';
export const DATE_PLACEHOLDER = 'Selecione a data';

/** A day range of the list filters, YYYY-MM-DD. */
export interface DateRange { from: string; to: string }
