declare module "*.eml?raw" {
  const content: string;
  export default content;
}
