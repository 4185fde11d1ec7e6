/** Small pieces of terminal text that the displays share. */

export const number = new Intl.NumberFormat("en-US");
