/*
 * The listener charts: records handled per second, lag and dead letters per second over the last 15 minutes,
 * from GET /listeners/{name}/history (5-second intervals kept by every worker), drawn with uPlot.
 */
'use strict';

const Charts = {
  SERIES: [
    {field: 'records_per_second', title: 'Records handled / s', color: '#2563eb'},
    {field: 'lag', title: 'Lag (entries not yet delivered)', color: '#d97706'},
    {field: 'dead_letters_per_second', title: 'Dead letters / s', color: '#dc2626'},
  ],

  /** Creates the three charts inside {@code container}; returns an object with update(history). */
  create(container) {
    const plots = [];
    for (const s of this.SERIES) {
      const box = el('div', {class: 'chart', 'data-chart': s.field});
      box.append(el('h3', {}, s.title));
      container.append(box);
      const options = {
        width: Math.max(280, Math.min(420, Math.floor(container.clientWidth / 3) - 48)),
        height: 160,
        legend: {show: false},
        scales: {x: {time: true}, y: {range: (u, min, max) => [0, Math.max(1, max * 1.1)]}},
        axes: [{}, {size: 56}],
        series: [{}, {label: s.title, stroke: s.color, width: 2, fill: s.color + '22'}],
      };
      plots.push({field: s.field, plot: new uPlot(options, [[], []], box)});
    }
    return {
      update(history) {
        const points = history.points || [];
        const times = points.map(p => p.time_ms / 1000);
        for (const p of plots) {
          p.plot.setData([times, points.map(point => point[p.field])]);
        }
      },
    };
  },
};
