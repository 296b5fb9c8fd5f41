/**
 * The asisten module's public face (docs/adr/0052-a-modules-public-face.md): the verbs its routes, jobs
 * and other modules use. The logic lives in files named for what they do.
 */
export {
  assistantStatus,
  type ChatEvent,
  chat,
  chatEvents,
  chatStream,
  getInfoRt,
  updateInfoRt,
} from "./assistant";
