// The node form's pattern (label, control, help, the refusal beside it) as one part, so every console form
// places the API's field refusals the same way: aria-invalid on the control, its error read after its help.
import type { Child } from "hono/jsx";
import { errorsAt, type FormError } from "./form";
import { FieldError, invalidAttrs } from "./layout";

type Attributes = Record<string, string | number | boolean | undefined>;

interface FieldProps {
  /** The control's id: the label's `for`, and what a FieldMap names (`field`) and ErrorNotice links to. */
  id: string;
  label: Child;
  error?: FormError;
  help?: Child;
  /** The help's id, when tests or styles already name it; default `${id}-help`. */
  helpId?: string;
}

function Help({ id, help }: { id: string; help?: Child }) {
  return help ? (
    <p id={id} class="help">
      {help}
    </p>
  ) : null;
}

/** A labelled <input> (name, value, type… in `input`). */
export function InputField({ id, label, error, help, helpId = `${id}-help`, input }: FieldProps & { input: Attributes }) {
  const messages = errorsAt(error, id);
  return (
    <>
      <label for={id}>{label}</label>
      <input id={id} {...input} {...invalidAttrs(id, messages, help ? helpId : undefined)} />
      <Help id={helpId} help={help} />
      <FieldError field={id} messages={messages} />
    </>
  );
}

/** A labelled <select> with its options as children. */
export function SelectField({
  id,
  label,
  error,
  help,
  helpId = `${id}-help`,
  select,
  children,
}: FieldProps & { select: Attributes; children: Child }) {
  const messages = errorsAt(error, id);
  return (
    <>
      <label for={id}>{label}</label>
      <select id={id} {...select} {...invalidAttrs(id, messages, help ? helpId : undefined)}>
        {children}
      </select>
      <Help id={helpId} help={help} />
      <FieldError field={id} messages={messages} />
    </>
  );
}

/** A labelled <textarea>; its text is the children. */
export function TextareaField({
  id,
  label,
  error,
  help,
  helpId = `${id}-help`,
  textarea,
  children,
}: FieldProps & { textarea: Attributes; children: Child }) {
  const messages = errorsAt(error, id);
  return (
    <>
      <label for={id}>{label}</label>
      <textarea id={id} {...textarea} {...invalidAttrs(id, messages, help ? helpId : undefined)}>
        {children}
      </textarea>
      <Help id={helpId} help={help} />
      <FieldError field={id} messages={messages} />
    </>
  );
}

/** The refusals of a fieldset (checkbox groups): beside its legend's group, named by the fieldset's id. */
export const FieldsetError = ({ id, error }: { id: string; error?: FormError }) => <FieldError field={id} messages={errorsAt(error, id)} />;
