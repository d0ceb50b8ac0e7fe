/*
 * One listener: state, handler, actions (pause, resume, stop, restart; each confirmed first), figures now,
 * charts over 15 minutes, members, and the shard table (owner, owner epoch, state, lag, pending, oldest
 * pending age, last processed id), sortable by any column, with per-shard pause and resume.
 */
'use strict';

const ListenerView = {
  name: null,
  charts: null,
  sort: {key: 'shard', desc: false},

  async render(root, name, actions) {
    const path = '/listeners/' + encodeURIComponent(name);
    const [status, info, history] = await Promise.all([Api.get(path + '/status'), Api.get(path),
      Api.get(path + '/history')]);
    if (this.name !== name || !root.querySelector('#charts')) {
      this.name = name;
      this.sort = {key: 'shard', desc: false};
      root.replaceChildren(el('div', {id: 'listener-head'}), el('div', {id: 'charts', class: 'charts'}),
        el('div', {id: 'listener-body'}));
      this.charts = Charts.create(root.querySelector('#charts'));
    }
    this.charts.update(history);
    const last = history.points.length ? history.points[history.points.length - 1] : null;
    const head = root.querySelector('#listener-head');
    head.replaceChildren(...[
      el('h1', {}, 'Listener ', el('code', {}, name), ' ', el('span', {id: 'listener-state'}, badge(status.state))),
      el('dl', {class: 'facts'},
        fact('Handler', info.config.handler || '—', 'handler'),
        fact('Group', el('a', {href: '#/groups/' + encodeURIComponent(status.group)}, status.group)),
        fact('Target state', info.target_state, 'target-state'),
        fact('Source', info.source),
        fact('Records / s', fmtRate(last && last.records_per_second), 'records-rate'),
        fact('Lag', last ? String(last.lag) : '—', 'lag-now'),
        fact('Dead letters / s', fmtRate(last && last.dead_letters_per_second), 'dead-rate')),
      el('p', {class: 'actions'},
        this.button('pause', 'Pause', 'PUT', path + '/pause', actions),
        this.button('resume', 'Resume', 'PUT', path + '/resume', actions),
        this.button('stop', 'Stop', 'PUT', path + '/stop', actions),
        this.button('restart', 'Restart', 'POST', path + '/restart', actions)),
      status.trace ? el('pre', {class: 'error'}, status.trace) : null,
      status.unanswered_workers ? el('p', {class: 'error'}, 'Workers that did not answer: '
        + status.unanswered_workers.join(', ')) : null].filter(Boolean));
    const body = root.querySelector('#listener-body');
    body.replaceChildren(
      el('h2', {}, 'Members'),
      table('members', [
        {key: 'id', title: 'Member'},
        {key: 'worker_id', title: 'Worker'},
        {key: 'state', title: 'State', render: m => badge(m.state)},
        {key: 'epoch', title: 'Epoch'},
        {key: 'shards', title: 'Shards', render: m => m.shards.join(' ')},
      ], status.members, {rowAttrs: m => ({'data-member': m.id})}),
      el('h2', {}, 'Shards'),
      this.pageNote(status),
      table('shards', this.columns(name, actions), status.shards, {
        sort: this.sort,
        onSort: key => {
          this.sort = {key, desc: this.sort.key === key ? !this.sort.desc : key === 'lag' || key === 'pending'};
          actions.refresh();
        },
        rowAttrs: s => ({'data-shard': s.stream + ':' + s.shard}),
      }));
  },

  /* A large listener's status lists its first page of shards (GET .../status?offset=&limit=); say so. */
  pageNote(status) {
    const total = status.shards_total;
    if (total === undefined || total <= status.shards.length) {
      return el('span', {});
    }
    const from = (status.shards_offset || 0) + 1;
    return el('p', {id: 'shard-page'}, 'Shards ' + from + '–' + (from + status.shards.length - 1) + ' of '
      + total + ' (the REST API lists more: GET /listeners/' + status.name + '/status?offset=&limit=).');
  },

  columns(name, actions) {
    const base = '/listeners/' + encodeURIComponent(name) + '/shards/';
    return [
      {key: 'stream', title: 'Stream', sortable: true},
      {key: 'shard', title: 'Shard', sortable: true, value: s => s.stream + ':' + String(s.shard).padStart(6, '0')},
      {key: 'owner', title: 'Owner', sortable: true},
      {key: 'owner_epoch', title: 'Owner epoch', sortable: true, render: s => s.owner_epoch >= 0 ? String(s.owner_epoch) : '—'},
      {key: 'state', title: 'State', sortable: true, render: s => badge(s.state)},
      {key: 'lag', title: 'Lag', sortable: true},
      {key: 'pending', title: 'Pending', sortable: true},
      {key: 'oldest_pending_ms', title: 'Oldest pending', sortable: true, render: s => s.oldest_pending_ms === undefined
        ? '—' : fmtDuration(s.oldest_pending_ms)},
      {key: 'last_processed_id', title: 'Last processed id', sortable: true},
      {key: 'act', title: '', render: s => {
        const shard = encodeURIComponent(s.stream) + '/' + s.shard;
        const paused = s.state === 'PAUSED';
        return el('button', {type: 'button', class: 'small', 'data-action': paused ? 'resume-shard' : 'pause-shard',
          onclick: () => actions.confirm((paused ? 'Resume' : 'Pause') + ' shard ' + s.stream + ':' + s.shard
            + ' of listener ' + name + '?', 'PUT', base + shard + (paused ? '/resume' : '/pause'))},
        paused ? 'Resume' : 'Pause');
      }},
    ];
  },

  button(id, label, method, path, actions) {
    return el('button', {type: 'button', id: 'action-' + id, class: id === 'stop' ? 'danger' : null,
      onclick: () => actions.confirm(label + ' listener ' + this.name + '?', method, path)}, label);
  },
};
