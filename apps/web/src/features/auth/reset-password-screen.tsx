import { useState } from 'react';
import { useForm } from '../../lib/form';
import { useParams } from 'wouter';
import { resetPasswordFormSchema, type ResetPasswordForm } from '@bathylog/shared/rules/auth-forms';
import { useResetPassword } from '../../api/auth';
import { errorMessage } from '../../api/client';
import { PasswordPair } from '../../components/form-field';
import { useCaptcha } from '../../lib/captcha';
import { AuthFormCard, AuthSuccessCard } from '../../components/auth-card';

const empty: ResetPasswordForm = { password: '', confirmPassword: '' };

/** /resetPassword/:token (docs/screens.md#forgot-and-reset-password): a new password; on success Back to Login. */
export function ResetPasswordScreen() {
  const { token = '' } = useParams();
  const captcha = useCaptcha();
  const reset = useResetPassword();
  const [error, setError] = useState('');
  const [done, setDone] = useState(false);
  const {
    register,
    handleSubmit,
    reset: resetForm,
    formState: { errors, isSubmitting },
  } = useForm<ResetPasswordForm>({ schema: resetPasswordFormSchema, defaultValues: empty });

  const onSubmit = handleSubmit(async (values) => {
    setError('');
    try {
      await reset.mutateAsync({ token, password: values.password, reCaptcha: await captcha() });
      resetForm(empty);
      setDone(true);
    } catch (err) {
      setError(errorMessage(err));
    }
  });

  if (done) return <AuthSuccessCard title="Reset Password" message="Password Reset" prefix="Sweet!" />;

  return (
    <AuthFormCard
      title="Reset Password"
      error={error}
      onSubmit={onSubmit}
      submit={{ label: 'Submit', disabled: isSubmitting }}
    >
      <PasswordPair
        required
        autoFocus
        password={register('password')}
        confirmPassword={register('confirmPassword')}
        errors={errors}
      />
    </AuthFormCard>
  );
}
