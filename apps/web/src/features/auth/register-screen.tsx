import { useState } from 'react';
import { Alert } from 'react-bootstrap';
import { useForm } from '../../lib/form';
import { registerFormSchema, type RegisterForm } from '@bathylog/shared/rules/auth-forms';
import { useRegister } from '../../api/auth';
import { errorMessage } from '../../api/client';
import { AccountFields } from '../../components/account-fields';
import { useCaptcha } from '../../lib/captcha';
import { useSettings } from '../../lib/settings';
import { AuthFormCard, AuthSuccessCard } from '../../components/auth-card';

const empty: RegisterForm = { username: '', fullname: '', email: '', password: '', confirmPassword: '' };

const registeredMessage = 'Registration complete. You can now log in with your new account.';
/** Self-registration closed: the account exists but stays disabled (docs/screens.md#registration). */
export const registeredDisabledMessage =
  'Registration complete. Your account is disabled until an administrator enables it: you can log in once they have.';
export const registrationClosedText =
  'Self-registration is closed on this server: a new account stays disabled until an administrator enables it.';

/** /register (docs/screens.md#registration): the five rules; on success a panel with Back to Login. */
export function RegisterScreen() {
  const captcha = useCaptcha();
  const { registrationDisabled } = useSettings();
  const registerUser = useRegister();
  const [error, setError] = useState('');
  const [done, setDone] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<RegisterForm>({ schema: registerFormSchema, defaultValues: empty });

  const onSubmit = handleSubmit(async (values) => {
    setError('');
    try {
      await registerUser.mutateAsync({
        username: values.username,
        fullname: values.fullname.trim(),
        email: values.email.trim(),
        password: values.password,
        reCaptcha: await captcha(),
      });
      setDone(true);
    } catch (err) {
      setError(errorMessage(err));
    }
  });

  if (done)
    return (
      <AuthSuccessCard
        title="User Registration"
        message={registrationDisabled ? registeredDisabledMessage : registeredMessage}
      />
    );

  return (
    <AuthFormCard
      title="User Registration"
      error={error}
      onSubmit={onSubmit}
      submit={{ label: 'Register', disabled: isSubmitting }}
    >
      {registrationDisabled && (
        <Alert variant="info" className="small" data-testid="registration-closed">
          {registrationClosedText}
        </Alert>
      )}
      <AccountFields register={register} errors={errors} autoComplete="fill" passwordRequired autoFocus />
    </AuthFormCard>
  );
}
