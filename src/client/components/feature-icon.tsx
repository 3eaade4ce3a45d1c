// The feature cards' icons, drawn inline so they cost no request.
const paths = {
  practice: 'M4 5h16v11H8l-4 4zM8 9h8M8 12h5',
  shield: 'M12 3l8 3v6c0 4.5-3.4 8.3-8 9-4.6-.7-8-4.5-8-9V6zM8.5 12l2.5 2.5 4.5-5',
  family:
    'M8 11a3 3 0 100-6 3 3 0 000 6zM17 12a2.5 2.5 0 100-5 2.5 2.5 0 000 5zM3 20c0-3 2.2-5 5-5s5 2 5 5M13.5 20c0-2.4 1.6-4 3.5-4s3.5 1.6 3.5 4',
} as const;

export function FeatureIcon({ name }: { name: keyof typeof paths }) {
  return (
    <svg className="card__icon" aria-hidden="true" viewBox="0 0 24 24" width="48" height="48">
      <path
        d={paths[name]}
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
