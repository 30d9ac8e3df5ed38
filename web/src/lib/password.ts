/** A rule a new password must meet, with the spec's message. */
export interface PasswordRule {
  id: "length" | "lowercase" | "uppercase" | "number";
  /** Shown in the requirements list. */
  label: string;
  /** Shown when the rule is not met. */
  message: string;
  test: (password: string) => boolean;
}

/** The spec's minimum password length. */
export const MIN_PASSWORD_LENGTH = 8;

export const PASSWORD_RULES: readonly PasswordRule[] = [
  {
    id: "length",
    label: `At least ${MIN_PASSWORD_LENGTH} characters`,
    message: "Password must be at least 8 characters long",
    test: (p) => p.length >= MIN_PASSWORD_LENGTH,
  },
  {
    id: "lowercase",
    label: "One lowercase letter",
    message: "Password must contain at least one lowercase letter",
    test: (p) => /\p{Ll}/u.test(p),
  },
  {
    id: "uppercase",
    label: "One uppercase letter",
    message: "Password must contain at least one uppercase letter",
    test: (p) => /\p{Lu}/u.test(p),
  },
  {
    id: "number",
    label: "One number",
    message: "Password must contain at least one number",
    test: (p) => /\d/.test(p),
  },
];

/** The first unmet rule's message, or undefined when the password is acceptable. */
export function passwordProblem(password: string): string | undefined {
  return PASSWORD_RULES.find((rule) => !rule.test(password))?.message;
}

export const PASSWORDS_DO_NOT_MATCH = "Passwords do not match";
