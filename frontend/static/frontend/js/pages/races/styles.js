// The race stylesheet, added once by the first race screen (only race screens need it).

export function raceStyles() {
  if (document.getElementById('race-css')) return;
  const link = document.createElement('link');
  link.id = 'race-css';
  link.rel = 'stylesheet';
  link.href = '/static/frontend/css/races.css';
  document.head.append(link);
}
