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

/**
 * The name and phone boxes of a details form: the person's own (their browser may fill them in)
 * and the owner's correction (it must not: the owner's own details are not the person's).
 */
export function NameAndPhoneFields({
  labels,
  errors,
  values,
  autoFill,
}: {
  labels: { name: string; nameHint?: string | undefined; phone: string; phoneHint?: string | undefined };
  errors: { name?: string | undefined; phone?: string | undefined };
  values: { name: string; phone: string };
  autoFill: boolean;
}) {
  const fields = [
    { id: 'name', type: 'text', fill: 'name', label: labels.name, hint: labels.nameHint },
    { id: 'phone', type: 'tel', fill: 'tel', label: labels.phone, hint: labels.phoneHint },
  ] as const;
  return (
    <>
      {fields.map(({ id, type, fill, label, hint }) => (
        <TextField
          key={id}
          className="field"
          id={id}
          label={label}
          hint={hint}
          error={errors[id]}
          type={type}
          autoComplete={autoFill ? fill : 'off'}
          value={values[id]}
        />
      ))}
    </>
  );
}
