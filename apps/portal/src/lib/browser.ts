/**
 * Full-page navigation, behind one object so unit tests can replace it (happy-dom does not navigate).
 */
export const browser = {
  assign(url: string): void {
    window.location.assign(url);
  },
  reload(): void {
    window.location.reload();
  },
};
