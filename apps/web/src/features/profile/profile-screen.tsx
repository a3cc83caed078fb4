import { useEffect, useState } from 'react';
import { Alert, Button, Card, Col, Form, Row } from 'react-bootstrap';
import { useForm } from '../../lib/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { profileFormSchema, profileUpdateBody, type ProfileForm } from '@bathylog/shared/rules/auth-forms';
import { authKeys, getProfileToken, updateProfile, type Profile } from '../../api/auth';
import { errorMessage } from '../../api/client';
import { ErrorAlert, SuccessAlert } from '../../components/alerts';
import { LoadingText, statusTexts } from '../../components/status-text';
import { useAuth } from '../../lib/auth';
import { AccountFields } from '../../components/account-fields';
import { useFormAlerts } from '../../components/form-actions';

/** How long Show API Token keeps the token on screen (docs/screens.md#profile). */
export const tokenDisplayMs = 10_000;

function formValues(profile: Profile): ProfileForm {
  return {
    username: profile.username,
    fullname: profile.fullname,
    email: profile.email,
    password: '',
    confirmPassword: '',
  };
}

/**
 * Reveals an API token for scripts (GET auth/profile/token: the Sealog token, without expiry) for
 * 10 seconds with a warning not to share it. The browser's own session token stays in its
 * HttpOnly cookie.
 */
function ApiToken() {
  const [token, setToken] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState('');
  useEffect(() => {
    if (!token) return;
    const timer = setTimeout(() => setToken(null), tokenDisplayMs);
    return () => clearTimeout(timer);
  }, [token]);

  const show = async () => {
    setError('');
    setLoading(true);
    try {
      setToken(await getProfileToken());
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setLoading(false);
    }
  };

  return (
    <div className="mt-3">
      <ErrorAlert message={error} onClose={() => setError('')} />
      <Button variant="outline-primary" size="sm" onClick={() => void show()} disabled={loading || !!token}>
        Show API Token
      </Button>
      {token && (
        <div className="mt-2" data-testid="api-token">
          <Alert variant="warning" className="py-2 small mb-2">
            <strong>Warning:</strong> this token gives full access to your account. Do not share it with anyone.
          </Alert>
          <Form.Control
            as="textarea"
            rows={4}
            readOnly
            value={token}
            aria-label="API Token"
            className="small font-monospace"
          />
        </div>
      )}
    </div>
  );
}

/** /profile (docs/screens.md#profile): own username, full name, password; email read-only. */
export function ProfileScreen() {
  const auth = useAuth();
  const queryClient = useQueryClient();
  const alerts = useFormAlerts();
  const profile = auth.profile;
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<ProfileForm>({
    schema: profileFormSchema,
    defaultValues: profile
      ? formValues(profile)
      : { username: '', fullname: '', email: '', password: '', confirmPassword: '' },
  });

  // Fill the form once the profile arrives (and again after an update).
  useEffect(() => {
    if (profile) reset(formValues(profile));
  }, [profile, reset]);

  const update = useMutation({
    mutationFn: updateProfile,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.all }),
  });

  const onSubmit = alerts.submit(
    handleSubmit((values) =>
      alerts.save(async () => {
        await update.mutateAsync(profileUpdateBody(values));
        // Show what is stored now (a blank username was not sent, so it comes back).
        const fresh = queryClient.getQueryData<Profile>(authKeys.profile(auth.sessionKey));
        if (fresh) reset(formValues(fresh));
        alerts.setMessage('User updated');
      }),
    ),
  );

  if (!profile) return <LoadingText text={statusTexts.loading} />;
  // The shared guest account has no profile to edit.
  if (auth.isGuest) return <div className="text-center p-4 text-secondary">{statusTexts.notAllowed}</div>;

  return (
    <Row className="justify-content-center">
      <Col md={8} lg={6}>
        <Card>
          <Card.Header as="h5">User Profile</Card.Header>
          <Card.Body>
            <ErrorAlert message={alerts.error} onClose={alerts.onCloseError} />
            <SuccessAlert message={alerts.message} onClose={alerts.onCloseMessage} />
            <Form noValidate onSubmit={onSubmit} aria-label="User Profile">
              <AccountFields
                register={register}
                errors={errors}
                autoComplete="fill"
                columns
                usernameOptional
                emailReadOnly
              />
              <div className="d-flex flex-wrap justify-content-end gap-2">
                <Button
                  variant="outline-secondary"
                  size="sm"
                  className="text-nowrap"
                  onClick={() => {
                    reset(formValues(profile));
                    alerts.clear();
                  }}
                  disabled={!isDirty || isSubmitting}
                >
                  Reset Values
                </Button>
                <Button type="submit" variant="primary" size="sm" disabled={isSubmitting}>
                  Update
                </Button>
              </div>
            </Form>
            <ApiToken />
          </Card.Body>
        </Card>
      </Col>
    </Row>
  );
}
