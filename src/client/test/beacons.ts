// Test support (jsdom): catches what the page sends with navigator.sendBeacon, as the text the
// server would receive, and reads the analytics events out of it.

/** Replaces navigator.sendBeacon; call in beforeEach. The array fills as beacons are sent. */
export function catchBeacons(beacons: string[]): void {
  beacons.length = 0;
  Object.defineProperty(navigator, 'sendBeacon', {
    configurable: true,
    value: (_url: string, body: Blob) => {
      // jsdom's Blob has no text(); FileReader reads it as a browser would.
      const reader = new FileReader();
      reader.addEventListener('load', () => beacons.push(String(reader.result)));
      reader.readAsText(body);
      return true;
    },
  });
}

/** Every event in the beacons caught, in order. */
export function beaconEvents(beacons: string[]): { name: string; params: object }[] {
  return beacons.flatMap((text) => (JSON.parse(text) as { events: { name: string; params: object }[] }).events);
}
