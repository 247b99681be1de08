/** Failures the client raises itself, next to the server's catalogue codes. */
export type ClientErrorCode = 'timeout' | 'network_error' | 'invalid_response' | 'http_error';
