// The review's stylesheet, added once by the first review (only the review needs it).

export function reviewStyles() {
  if (document.getElementById('review-css')) return;
  const link = document.createElement('link');
  link.id = 'review-css';
  link.rel = 'stylesheet';
  link.href = '/static/frontend/css/review.css';
  document.head.append(link);
}
