import { useState } from 'react';
import { Button, Form } from 'react-bootstrap';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { registerFormSchema, type RegisterForm } from '@bathylog/shared/rules/auth-forms';
import { useRegister } from '../../api/auth';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/alerts';
import { PasswordPair, TextField } from '../../components/form-field';
import { useCaptcha } from '../../lib/captcha';
import { AuthCard, AuthSuccessCard } from './auth-card';

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
    <AuthCard title="User Registration">
      <ErrorAlert message={error} />
      <Form noValidate onSubmit={onSubmit} aria-label="User Registration">
        <TextField
          label="Username"
          required
          registration={register('username')}
          error={errors.username}
          autoComplete="username"
          autoFocus
        />
        <TextField
          label="Full Name"
          required
          registration={register('fullname')}
          error={errors.fullname}
          autoComplete="name"
        />
        <TextField
          label="Email"
          required
          type="email"
          registration={register('email')}
          error={errors.email}
          autoComplete="email"
        />
        <PasswordPair
          required
          password={register('password')}
          confirmPassword={register('confirmPassword')}
          errors={errors}
        />
        <div className="d-grid">
          <Button type="submit" variant="primary" disabled={isSubmitting}>
            Register
          </Button>
        </div>
      </Form>
      <hr />
      <div className="text-center">
        <Link to="/login">Back to Login</Link>
      </div>
    </AuthCard>
  );
}
