// Short sounds generated with the Web Audio API; off by default until the player turns them on.

/** @type {AudioContext | null} */
let ctx = null;
let enabled = localStorage.getItem('tp.sound') === 'on';

export const soundOn = () => enabled;

/** @param {boolean} on */
export function setSound(on) {
  enabled = on;
  localStorage.setItem('tp.sound', on ? 'on' : 'off');
  if (on) play('play');
}

function audio() {
  if (!ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    ctx = new AC();
  }
  if (ctx.state === 'suspended') ctx.resume();
  return ctx;
}

/**
 * @param {AudioContext} ac
 * @param {number} freq Hz
 * @param {number} start s from now
 * @param {number} length s
 * @param {OscillatorType} [type]
 * @param {number} [gain]
 */
function tone(ac, freq, start, length, type = 'triangle', gain = 0.15) {
  const osc = ac.createOscillator();
  const amp = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, ac.currentTime + start);
  amp.gain.setValueAtTime(gain, ac.currentTime + start);
  amp.gain.exponentialRampToValueAtTime(0.001, ac.currentTime + start + length);
  osc.connect(amp).connect(ac.destination);
  osc.start(ac.currentTime + start);
  osc.stop(ac.currentTime + start + length + 0.02);
}

/** @type {Record<SoundName, (ac: AudioContext) => void>} */
const SOUNDS = {
  play: (ac) => tone(ac, 660, 0, 0.09),
  draw: (ac) => { tone(ac, 330, 0, 0.06, 'square', 0.05); tone(ac, 440, 0.04, 0.06, 'square', 0.04); },
  undo: (ac) => tone(ac, 440, 0, 0.08, 'sine'),
  shake: (ac) => tone(ac, 120, 0, 0.15, 'sawtooth', 0.08),
  win: (ac) => [523, 659, 784, 1047].forEach((f, i) => tone(ac, f, i * 0.11, 0.2)),
  stuck: (ac) => [392, 311].forEach((f, i) => tone(ac, f, i * 0.15, 0.25, 'sine')),
};

/** @param {SoundName} name */
export function play(name) {
  if (!enabled) return;
  try {
    const ac = audio();
    if (ac && SOUNDS[name]) SOUNDS[name](ac);
  } catch {
    /* sound is a nicety: never let it break play */
  }
}
