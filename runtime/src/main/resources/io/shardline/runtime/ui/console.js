/*
 * The console's shell: sign-in, navigation by URL fragment (#/cluster, #/listeners, #/listeners/<name>,
 * #/groups/<group>, #/streams), a refresh of the open view every few seconds, confirmed actions and messages.
 */
'use strict';

const REFRESH_MS = 3000;

const Console = {
  busy: false,

  start() {
    Api.onUnauthorized = () => this.signOut('The token was refused (401): sign in again.');
    document.getElementById('signin-form').addEventListener('submit', e => {
      e.preventDefault();
      this.signIn(document.getElementById('token').value);
    });
    document.getElementById('signout').addEventListener('click', () => this.signOut(''));
    window.addEventListener('hashchange', () => this.refresh());
    setInterval(() => this.refresh(), REFRESH_MS);
    if (Api.token() !== null) {
      this.showApp();
    } else {
      this.showSignIn('');
    }
  },

  async signIn(token) {
    const error = document.getElementById('signin-error');
    error.textContent = '';
    try {
      const info = await Api.signIn(token);
      document.getElementById('token').value = '';
      document.getElementById('who').textContent = info.cluster_name + ' · ' + info.worker_id;
      this.showApp();
    } catch (e) {
      Api.clearToken();
      error.textContent = 'Sign-in failed: ' + e.message;
    }
  },

  signOut(message) {
    Api.clearToken();
    this.showSignIn(message);
  },

  showSignIn(message) {
    document.getElementById('signin-view').hidden = false;
    document.getElementById('view').hidden = true;
    document.getElementById('nav').hidden = true;
    document.getElementById('signout').hidden = true;
    document.getElementById('who').textContent = '';
    document.getElementById('signin-error').textContent = message;
    this.flash('');
  },

  showApp() {
    document.getElementById('signin-view').hidden = true;
    document.getElementById('view').hidden = false;
    document.getElementById('nav').hidden = false;
    document.getElementById('signout').hidden = false;
    if (!location.hash) {
      location.hash = '#/cluster';
    }
    Api.get('/').then(info => {
      document.getElementById('who').textContent = info.cluster_name + ' · ' + info.worker_id;
    }, () => {});
    this.refresh();
  },

  /** Draws the view named by the URL fragment (skipped while a draw is under way or signed out). */
  async refresh() {
    if (Api.token() === null || this.busy) {
      return;
    }
    this.busy = true;
    const [view, arg] = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
    const root = document.getElementById('view');
    document.querySelectorAll('#nav a').forEach(a => a.classList.toggle('active', a.dataset.view === view));
    try {
      if (view === 'listeners' && arg) {
        await ListenerView.render(root, arg, this.actions);
      } else if (view === 'groups') {
        await Views.groups(root, arg);
      } else if (Views[view]) {
        await Views[view](root);
      } else {
        await Views.cluster(root);
      }
      root.dataset.updated = String(Date.now());
    } catch (e) {
      if (e.status !== 401) {
        this.flash('Could not load this view: ' + e.message, true);
      }
    } finally {
      this.busy = false;
    }
  },

  flash(text, error) {
    const flash = document.getElementById('flash');
    flash.textContent = text;
    flash.className = error ? 'error' : '';
  },

  actions: {
    refresh: () => {
      Console.busy = false;
      Console.refresh();
    },

    /** Asks for confirmation, then sends the write and reports its answer. */
    confirm(text, method, path) {
      const dialog = document.getElementById('confirm');
      document.getElementById('confirm-text').textContent = text;
      dialog.returnValue = '';
      dialog.addEventListener('close', async () => {
        if (dialog.returnValue !== 'ok') {
          return;
        }
        try {
          await Api.write(method, path);
          Console.flash('Done: ' + method + ' ' + path + ' was accepted; the view follows within a few seconds.');
        } catch (e) {
          Console.flash(method + ' ' + path + ' refused: ' + e.message, true);
        }
        Console.refresh();
      }, {once: true});
      dialog.showModal();
    },
  },
};

document.addEventListener('DOMContentLoaded', () => Console.start());
