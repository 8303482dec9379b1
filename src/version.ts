declare const RTK_VERSION: string | undefined;

export const VERSION: string = typeof RTK_VERSION !== "undefined" ? RTK_VERSION : "0.0.0-dev";
