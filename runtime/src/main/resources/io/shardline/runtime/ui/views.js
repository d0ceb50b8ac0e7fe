/*
 * The console's views, each drawn from the REST API into #view: cluster, listeners, one listener (members,
 * shard table sortable by any column, charts, actions), groups (epochs, target against current assignment,
 * audit timeline) and streams. Text from the API is always set as text, never as HTML.
 */
'use strict';

/** An element with attributes and children (strings become text nodes). */
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) {
      continue;
    }
    if (k.startsWith('on')) {
      node.addEventListener(k.substring(2), v);
    } else {
      node.setAttribute(k, v === true ? '' : v);
    }
  }
  for (const c of children.flat()) {
    if (c !== undefined && c !== null) {
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
  }
  return node;
}

function fmtDuration(ms) {
  if (ms === undefined || ms === null) {
    return '—';
  }
  let s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400); s %= 86400;
  const h = Math.floor(s / 3600); s %= 3600;
  const m = Math.floor(s / 60); s %= 60;
  return (d ? d + 'd ' : '') + (d || h ? h + 'h ' : '') + (d || h || m ? m + 'm ' : '') + s + 's';
}

function fmtRate(x) {
  return x === undefined || x === null ? '—' : (Math.round(x * 10) / 10).toFixed(1);
}

function badge(state) {
  return el('span', {class: 'badge state-' + String(state).toLowerCase()}, state);
}

function fact(label, value, id) {
  return [el('dt', {}, label), el('dd', {id}, value)];
}

/**
 * A table. columns: [{key, title, value(row) for sorting, render(row) for the cell, sortable}]; sort: {key, desc}
 * (clicking a sortable header calls onSort(key)); rowAttrs(row) gives each row's attributes.
 */
function table(id, columns, rows, options = {}) {
  const {sort, onSort, rowAttrs} = options;
  const sorted = rows.slice();
  if (sort && sort.key) {
    const col = columns.find(c => c.key === sort.key);
    const value = col.value || (r => r[col.key]);
    sorted.sort((a, b) => {
      const x = value(a), y = value(b);
      const order = x === y ? 0 : x === null || x === undefined ? 1 : y === null || y === undefined ? -1
        : x < y ? -1 : 1;
      return sort.desc ? -order : order;
    });
  }
  const head = el('tr', {}, columns.map(c => {
    const arrow = sort && sort.key === c.key ? (sort.desc ? ' ▼' : ' ▲') : '';
    return c.sortable
      ? el('th', {'data-sort': c.key, class: 'sortable', onclick: () => onSort(c.key)}, c.title + arrow)
      : el('th', {}, c.title);
  }));
  const body = sorted.map(r => el('tr', rowAttrs ? rowAttrs(r) : {}, columns.map(c => {
    const cell = c.render ? c.render(r) : r[c.key];
    return el('td', {class: c.key}, cell === undefined || cell === null ? '—' : cell);
  })));
  return el('table', {id}, el('thead', {}, head), el('tbody', {}, body));
}

const Views = {

  async cluster(root) {
    const [info, workers, health] = await Promise.all([Api.get('/'), Api.get('/workers'), Api.get('/health')]);
    root.replaceChildren(
      el('h1', {}, 'Cluster ', el('code', {}, info.cluster_name)),
      el('dl', {class: 'facts'},
        fact('Leader', workers.leader_id || 'none known', 'leader'),
        fact('Workers', String(workers.workers.length)),
        fact('Serving this page', info.worker_id + ' (' + info.version + ')'),
        fact('Health of ' + info.worker_id, health.status + ': ' + health.message, 'health')),
      table('workers', [
        {key: 'id', title: 'Worker'},
        {key: 'leader', title: 'Role', render: w => w.leader ? badge('LEADER') : 'member'},
        {key: 'version', title: 'Version'},
        {key: 'uptime_ms', title: 'Uptime', render: w => fmtDuration(w.uptime_ms)},
        {key: 'listeners', title: 'Listeners', render: w => w.listeners.join(', ')},
        {key: 'members', title: 'Members', render: w => String(w.members.length)},
        {key: 'health', title: 'Health', render: w => w.error ? el('span', {class: 'error'}, w.error) : badge('ANSWERING')},
      ], workers.workers, {rowAttrs: w => ({'data-worker': w.id})}));
  },

  async listeners(root) {
    const all = await Api.get('/listeners?expand=status');
    const rows = Object.entries(all).map(([name, v]) => summary(name, v.status));
    root.replaceChildren(
      el('h1', {}, 'Listeners'),
      rows.length === 0 ? el('p', {}, 'No listener yet: add a file to listeners.dir or POST /listeners.') : table('listeners', [
        {key: 'name', title: 'Listener', render: r => el('a', {href: '#/listeners/' + encodeURIComponent(r.name)}, r.name)},
        {key: 'state', title: 'State', render: r => badge(r.state)},
        {key: 'target', title: 'Target'},
        {key: 'group', title: 'Group', render: r => el('a', {href: '#/groups/' + encodeURIComponent(r.group)}, r.group)},
        {key: 'members', title: 'Members'},
        {key: 'owned', title: 'Shards owned', render: r => r.owned + ' / ' + r.shards},
        {key: 'lag', title: 'Lag'},
        {key: 'pending', title: 'Pending'},
      ], rows, {rowAttrs: r => ({'data-listener': r.name})}));
  },

  async groups(root, selected) {
    const all = await Api.get('/listeners?expand=status');
    const groups = [...new Set(Object.values(all).map(v => v.status.group))].sort();
    const group = selected || groups[0];
    const tabs = el('p', {class: 'tabs'}, groups.map(g =>
      el('a', {href: '#/groups/' + encodeURIComponent(g), class: g === group ? 'active' : null}, g)));
    if (!group) {
      root.replaceChildren(el('h1', {}, 'Groups'), el('p', {}, 'No group: no listener is defined.'));
      return;
    }
    let view, audit;
    try {
      [view, audit] = await Promise.all([Api.get('/groups/' + encodeURIComponent(group)),
        Api.get('/groups/' + encodeURIComponent(group) + '/audit?limit=50')]);
    } catch (e) {
      root.replaceChildren(el('h1', {}, 'Group ', el('code', {}, group)), tabs, el('p', {class: 'error'}, e.message));
      return;
    }
    root.replaceChildren(
      el('h1', {}, 'Group ', el('code', {}, group)), tabs,
      el('dl', {class: 'facts'},
        fact('Group epoch', String(view.group_epoch), 'group-epoch'),
        fact('Assignment epoch', String(view.assignment_epoch), 'assignment-epoch'),
        fact('Assignor', view.assignor),
        fact('Members', String(view.members.length))),
      el('h2', {}, 'Target against current assignment'),
      table('assignment', [
        {key: 'id', title: 'Member'},
        {key: 'worker_id', title: 'Worker'},
        {key: 'state', title: 'State', render: m => badge(m.state)},
        {key: 'member_epoch', title: 'Epoch'},
        {key: 'current', title: 'Owns now', render: m => m.current.join(' ')},
        {key: 'target', title: 'Target', render: m => m.target.join(' ')},
        {key: 'incoming', title: 'Waiting for', render: m => m.target.filter(s => !m.current.includes(s)).join(' ')},
        {key: 'pending_revocation', title: 'Revoking', render: m => m.pending_revocation.join(' ')},
      ], view.members, {rowAttrs: m => ({'data-member': m.id})}),
      el('ul', {class: 'moves', id: 'moves'}, moves(view.members)),
      el('h2', {}, 'Audit trail (newest first)'),
      el('ol', {class: 'timeline', id: 'audit'}, audit.slice().reverse().map(a => el('li', {},
        el('time', {}, new Date(a.time_ms).toLocaleTimeString()), ' ', badge(a.type), ' ',
        [a.member_id, a.shard].filter(Boolean).join(' · '),
        el('span', {class: 'epochs'}, ' group ' + a.group_epoch + ' / assignment ' + a.assignment_epoch
          + (a.member_epoch >= 0 ? ' / member ' + a.member_epoch : '')),
        el('div', {class: 'reason'}, a.reason)))));
  },

  async streams(root) {
    const all = await Api.get('/listeners?expand=status');
    const streams = new Map();
    for (const [name, v] of Object.entries(all)) {
      for (const s of v.status.shards) {
        const row = streams.get(s.stream) || {stream: s.stream, indices: new Set(), listeners: new Set(), lag: 0, pending: 0};
        row.indices.add(s.shard);
        row.listeners.add(name);
        row.lag += s.lag || 0;
        row.pending += s.pending;
        streams.set(s.stream, row);
      }
    }
    const rows = [...streams.values()].map(r => ({...r, shards: r.indices.size, listeners: [...r.listeners].sort()}));
    root.replaceChildren(
      el('h1', {}, 'Streams'),
      el('p', {class: 'note'}, 'The streams the listeners read and their shard counts. Resharding state and '
        + 'cutover progress will appear here once resharding is available.'),
      table('streams', [
        {key: 'stream', title: 'Stream'},
        {key: 'shards', title: 'Shards'},
        {key: 'listeners', title: 'Read by', render: r => r.listeners.join(', ')},
        {key: 'lag', title: 'Lag (all listeners)'},
        {key: 'pending', title: 'Pending'},
      ], rows.sort((a, b) => a.stream < b.stream ? -1 : 1), {rowAttrs: r => ({'data-stream': r.stream})}));
  },
};

/** One listener's summary row. */
function summary(name, status) {
  return {
    name, state: status.state, target: status.target_state, group: status.group, members: status.members.length,
    shards: status.shards.length, owned: status.shards.filter(s => s.owner).length,
    lag: status.shards.reduce((n, s) => n + (s.lag || 0), 0), pending: status.shards.reduce((n, s) => n + s.pending, 0),
  };
}

/** What is moving and why: each shard being revoked and the member waiting for it. */
function moves(members) {
  const out = [];
  for (const m of members) {
    for (const s of m.target.filter(x => !m.current.includes(x))) {
      const from = members.find(o => o.pending_revocation.includes(s) || (o.id !== m.id && o.current.includes(s)));
      out.push(el('li', {}, s + ': ' + (from ? 'revoking from ' + from.id + ', then to ' + m.id
        : 'free, being taken by ' + m.id) + ' (revoke before assign)'));
    }
  }
  return out.length ? out : [el('li', {}, 'Nothing is moving: every member owns its target.')];
}
