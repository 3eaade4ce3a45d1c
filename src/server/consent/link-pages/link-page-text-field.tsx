// One labelled text box of a server-rendered form (no script): its hint, and what is wrong with
// what was typed, beside it and tied to it (aria-describedby, aria-invalid). The person's own
// details form and the owner's correction form use it.
export interface TextFieldProps {
  id: string;
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
  type: 'text' | 'tel';
  autoComplete: string;
  value: string;
  /** The wrapper's class ("field": both stylesheets space fields with it). */
  className?: string;
}

export function TextField({ id, label, hint, error, type, autoComplete, value, className }: TextFieldProps) {
  const described = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return (
    <div {...(className ? { className } : {})}>
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
      <input
        id={id}
        name={id}
        type={type}
        autoComplete={autoComplete}
        defaultValue={value}
        {...(described ? { 'aria-describedby': described } : {})}
        {...(error ? { 'aria-invalid': true } : {})}
      />
    </div>
  );
}
