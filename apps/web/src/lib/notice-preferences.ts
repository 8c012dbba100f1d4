// Whether the signed-in user wants pop-up notices in the app (their notification preference). The
// realtime hook reads it for every notice it would show; the user query keeps it up to date.
let inApp = true;

export const setInAppNotices = (enabled: boolean): void => {
  inApp = enabled;
};

export const inAppNotices = (): boolean => inApp;
