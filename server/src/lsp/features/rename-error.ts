// The error of a rename the server refuses (not a symbol kit renames, a name that is not valid):
// answered as RequestFailed with its message, which editors show as it is.
export class RenameError extends Error {}
