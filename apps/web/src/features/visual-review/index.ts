export { RunVisualReview, RunVisualReviewLabel } from './run-visual-review';
