/** Where a person goes once signed in: where they were headed (a path of the app only), else home. */
export function afterSignIn(route: (url: string, replace?: boolean) => void, next?: string): void {
  route(next?.startsWith("/") && !next.startsWith("//") ? next : "/", true);
}
