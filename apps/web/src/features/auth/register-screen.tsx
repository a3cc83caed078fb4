import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { registerFormSchema, type RegisterForm } from '@bathylog/shared/rules/auth-forms';
import { useRegister } from '../../api/auth';
import { errorMessage } from '../../api/client';
import { AccountFields } from '../../components/account-fields';
import { useCaptcha } from '../../lib/captcha';
import { AuthFormCard, AuthSuccessCard } from '../../components/auth-card';

const empty: RegisterForm = { username: '', fullname: '', email: '', password: '', confirmPassword: '' };

/** /register (docs/screens.md#registration): the five rules; on success a panel with Back to Login. */
export function RegisterScreen() {
  const captcha = useCaptcha();
  const registerUser = useRegister();
  const [error, setError] = useState('');
  const [done, setDone] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<RegisterForm>({ resolver: zodResolver(registerFormSchema), defaultValues: empty });

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
        message="Registration complete. You can now log in with your new account."
      />
    );

  return (
    <AuthFormCard
      title="User Registration"
      error={error}
      onSubmit={onSubmit}
      submit={{ label: 'Register', disabled: isSubmitting }}
    >
      <AccountFields register={register} errors={errors} autoComplete="fill" passwordRequired autoFocus />
    </AuthFormCard>
  );
}
