/** Where the operations' paths are rooted; the app serves them there and the OpenAPI document says so. */
export const apiBasePath = '/api/v2';
