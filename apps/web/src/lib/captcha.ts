import { useCallback } from 'react';
import { useSettings } from './settings';

/**
 * Invisible reCAPTCHA (docs/screens.md#captcha): with a configured site key each public auth call first
 * obtains a token; without one it sends null. Google's script is loaded only when a key is set
 * (a ship without internet leaves it unset).
 */
interface Grecaptcha {
  ready: (cb: () => void) => void;
  render: (el: HTMLElement, params: Record<string, unknown>) => number;
  execute: (widgetId: number) => void;
  reset: (widgetId: number) => void;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

let scriptPromise: Promise<Grecaptcha> | null = null;

function loadScript(): Promise<Grecaptcha> {
  scriptPromise ??= new Promise<Grecaptcha>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = 'https://www.google.com/recaptcha/api.js?render=explicit';
    script.async = true;
    script.onload = () => {
      const g = window.grecaptcha;
      if (!g) return reject(new Error('reCAPTCHA did not load'));
      g.ready(() => resolve(g));
    };
    script.onerror = () => {
      scriptPromise = null;
      reject(new Error('reCAPTCHA could not be loaded'));
    };
    document.head.appendChild(script);
  });
  return scriptPromise;
}

export async function getCaptchaToken(siteKey: string): Promise<string> {
  const g = await loadScript();
  return new Promise<string>((resolve, reject) => {
    const host = document.createElement('div');
    host.style.display = 'none';
    document.body.appendChild(host);
    const done = () => host.remove();
    const widget = g.render(host, {
      sitekey: siteKey,
      size: 'invisible',
      callback: (token: string) => {
        done();
        resolve(token);
      },
      'error-callback': () => {
        done();
        reject(new Error('reCAPTCHA failed'));
      },
    });
    g.execute(widget);
  });
}

/** `const captcha = useCaptcha(); … reCaptcha: await captcha()` → token, or null without a site key. */
export function useCaptcha(): () => Promise<string | null> {
  const { recaptchaSiteKey } = useSettings();
  return useCallback(async () => (recaptchaSiteKey ? getCaptchaToken(recaptchaSiteKey) : null), [recaptchaSiteKey]);
}
