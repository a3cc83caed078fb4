import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from 'react-bootstrap';
import type { FieldError, UseFormRegisterReturn } from '../../lib/form';
import { Link } from 'wouter';
import { loginFormRules, type LoginForm } from '@bathylog/shared/rules/auth-messages';
import { errorMessage } from '../../api/client';
import type { LoginInput } from '../../api/auth';
import { AuthFormCard } from '../../components/auth-card';
import { useAuth } from '../../lib/auth';
import { takeSessionEndMessage } from '../../lib/session';
import { useCaptcha } from '../../lib/captcha';
import { useSettings } from '../../lib/settings';
import { TextField } from '../../components/form-field';

/**
 * The message an embedding frame posts to log in (docs/screens.md#auto-login-from-an-embedding-frame):
 * `{event: 'login-with-token', loginToken}`.
 */
export interface LoginWithTokenMessage {
  event: 'login-with-token';
  loginToken: string;
}

function isLoginWithToken(data: unknown): data is LoginWithTokenMessage {
  const d = data as Partial<LoginWithTokenMessage> | null;
  return typeof d === 'object' && d !== null && d.event === 'login-with-token' && typeof d.loginToken === 'string';
}

const loginFields = ['username', 'password'] as const;
type LoginErrors = Partial<Record<keyof LoginForm, FieldError>>;

/**
 * The two login fields with the other forms' behaviour (src/lib/form.ts: Required checked on
 * submit, then again as the user types; the first field in error gets the focus), in a few lines
 * instead of loading the form hook and zod on the first screen a ship's thin link fetches. Same
 * TextField, same messages (loginFormRules).
 */
function useLoginFields() {
  const inputs = useRef<Partial<Record<keyof LoginForm, HTMLInputElement | null>>>({});
  const submitted = useRef(false);
  const [errors, setErrors] = useState<LoginErrors>({});

  const values = (): LoginForm => ({
    username: inputs.current.username?.value ?? '',
    password: inputs.current.password?.value ?? '',
  });
  const check = (): LoginErrors => {
    const current = values();
    const found: LoginErrors = {};
    for (const name of loginFields) {
      if (!current[name]) found[name] = { type: 'required', message: loginFormRules[name].required };
    }
    return found;
  };
  const register = (name: keyof LoginForm): UseFormRegisterReturn => ({
    name,
    ref: (el: HTMLInputElement | null) => {
      inputs.current[name] = el;
    },
    onChange: async () => {
      if (submitted.current) setErrors(check());
    },
  });
  const handleSubmit = (onValid: (form: LoginForm) => void) => (e: FormEvent) => {
    e.preventDefault();
    submitted.current = true;
    const found = check();
    setErrors(found);
    const first = loginFields.find((name) => found[name]);
    if (first) inputs.current[first]?.focus();
    else onValid(values());
  };
  return { register, handleSubmit, errors };
}

/** /login (docs/screens.md#login): username/password, guest login, links, configured text and image. */
export function LoginScreen() {
  const auth = useAuth();
  const settings = useSettings();
  const captcha = useCaptcha();
  // Why the last session ended (roles changed, expired, signed out everywhere), from the server: a
  // message, not a failure; an attempt replaces it (docs/screens.md#login).
  const [message, setMessage] = useState(takeSessionEndMessage);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const { register, handleSubmit, errors } = useLoginFields();

  const { login } = auth;
  const attempt = useCallback(
    async (input: LoginInput) => {
      setBusy(true);
      setError('');
      setMessage('');
      try {
        await login({ ...input, reCaptcha: await captcha() });
        // Success: the route guard sends the user home.
      } catch (err) {
        // 401 and other server errors show the server's message; a network failure 'Unable to connect to server'.
        setError(errorMessage(err));
        setBusy(false);
      }
    },
    [login, captcha],
  );

  // Auto-login from an embedding frame, only from the configured origins (Sealog's client accepted
  // any origin).
  const allowedOrigins = settings.loginWithTokenOrigins;
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (!allowedOrigins.includes(event.origin) || !isLoginWithToken(event.data)) return;
      void attempt({ loginToken: event.data.loginToken });
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [allowedOrigins, attempt]);

  const onSubmit = handleSubmit((values) => attempt({ username: values.username, password: values.password }));

  return (
    <AuthFormCard
      title="Please Sign In"
      formLabel="Login"
      error={error}
      message={message}
      onSubmit={onSubmit}
      submit={{ label: 'Login', disabled: busy }}
      secondary={
        <Button
          type="button"
          variant="success"
          disabled={busy}
          onClick={() => void attempt({ username: 'guest', password: '' })}
        >
          Login as Guest
        </Button>
      }
      links={
        <>
          <div className="mb-2">
            <Link to="/forgotPassword">Forgot Password?</Link>
          </div>
          {!settings.registrationDisabled && (
            <div>
              <Link to="/register">Register New User</Link>
            </div>
          )}
          {settings.publicArchive && (
            <div className="mt-2">
              <Link to="/cruise_menu">Browse the public archive</Link>
            </div>
          )}
        </>
      }
      aside={
        <>
          {settings.loginImage && (
            <img
              src={`/images/${encodeURIComponent(settings.loginImage)}`}
              alt=""
              width={250}
              className="mb-3 d-block"
            />
          )}
          <div className="pre-wrap" data-testid="login-text">
            {settings.loginScreenText}
          </div>
        </>
      }
    >
      <TextField
        placeholder="Username or email"
        registration={register('username')}
        error={errors.username}
        autoComplete="username"
        autoFocus
      />
      <TextField
        placeholder="Password"
        type="password"
        registration={register('password')}
        error={errors.password}
        autoComplete="current-password"
      />
    </AuthFormCard>
  );
}
