// Shared by the fake main API (Node side) and the tests (workerd side); no runtime imports here.
export const TEST_INTERNAL_KEY = "test-internal-key-0123456789";

export type RecordedRequest = {
  method: string;
  url: string;
  contentType: string | null;
  internalKey: string | null;
  body: unknown;
};
