/*
 * The console's REST client: every call goes to this worker's REST API (same origin), with the token from the
 * tab's session storage as a bearer token, never a cookie (credentials are omitted) and never in a URL. Writes
 * send Content-Type: application/json with an empty JSON object.
 */
'use strict';

const TOKEN_KEY = 'shardline.token';

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

const Api = {
  /** Called when the API answers 401: the console signs out. */
  onUnauthorized: () => {},

  token() {
    return sessionStorage.getItem(TOKEN_KEY);
  },

  setToken(token) {
    sessionStorage.setItem(TOKEN_KEY, token);
  },

  clearToken() {
    sessionStorage.removeItem(TOKEN_KEY);
  },

  /** Checks a token with GET / before keeping it; resolves to the server info. */
  async signIn(token) {
    const info = await this.request('GET', '/', token);
    this.setToken(token);
    return info;
  },

  get(path) {
    return this.request('GET', path, this.token());
  },

  /** A write (PUT or POST); resolves to the answer's JSON or null. */
  write(method, path) {
    return this.request(method, path, this.token());
  },

  async request(method, path, token) {
    const headers = {'Accept': 'application/json'};
    if (token) {
      headers['Authorization'] = 'Bearer ' + token;
    }
    const options = {method, headers, credentials: 'omit', cache: 'no-store', redirect: 'error'};
    if (method !== 'GET') {
      headers['Content-Type'] = 'application/json';
      options.body = '{}';
    }
    let response;
    try {
      response = await fetch(path, options);
    } catch (e) {
      throw new ApiError(0, 'the worker did not answer (' + e.message + ')');
    }
    const text = await response.text();
    let body = null;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch (e) {
        body = null;
      }
    }
    if (response.status === 401) {
      this.onUnauthorized();
      throw new ApiError(401, 'the token was refused (401): ' + (body && body.message || 'sign in again'));
    }
    if (!response.ok && response.status !== 503) {
      throw new ApiError(response.status, (body && body.message) || ('HTTP ' + response.status));
    }
    return body;
  },
};
