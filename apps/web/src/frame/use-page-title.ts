import { useEffect } from 'react';
import { useApp } from '../lib/app-context.tsx';

/** Sets the document title of a screen: "{screen} | {application}". */
export function usePageTitle(screenTitle: string): void {
  const { t, cobrand } = useApp();
  useEffect(() => {
    const appName = cobrand?.appName || t('common.defaultAppName');
    document.title = screenTitle ? t('common.pageTitle', screenTitle, appName) : appName;
  }, [screenTitle, cobrand, t]);
}
